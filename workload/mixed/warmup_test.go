package mixed

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// TestWarmupAndLatencyLog: a run with a warm-up counts its first part
// apart, every kind in both parts has the percentiles asked for, and the
// latency log it writes is read back by HdrHistogram's own log reader,
// one histogram per kind of each part holding that kind's count.
func TestWarmupAndLatencyLog(t *testing.T) {
	cfg := smallConfig()
	cfg.Duration, cfg.Warmup = time.Second, 400*time.Millisecond
	cfg.Percentiles, cfg.Distributions = []float64{99.99}, true
	res, err := Run(memory.New(), t.TempDir(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	warm := res.Warmup
	if warm == nil || warm.Elapsed < 200*time.Millisecond || warm.Elapsed > 700*time.Millisecond || res.Elapsed < 300*time.Millisecond {
		t.Fatalf("warm-up %+v, run %v: want about 400ms then 600ms", warm, res.Elapsed)
	}
	var written int64
	for _, part := range [][]Operation{warm.Operations, res.Operations} {
		if len(part) != 6 {
			t.Fatalf("%d operation kinds, want writes and five query kinds: %+v", len(part), part)
		}
		for _, op := range part {
			if op.Count == 0 || op.Latency == nil || op.Percentiles[measure.PercentileKey(99.99)] < op.Latency.P99 || len(op.Distribution) == 0 {
				t.Errorf("%s: count %d, latency %+v, percentiles %v, %d bytes of distribution", op.Kind, op.Count, op.Latency, op.Percentiles, len(op.Distribution))
			}
		}
		written += part[0].Count
	}
	if f := res.Final; f == nil || f.Read != cfg.Points+written {
		t.Errorf("final check %+v, want the %d preloaded and %d written points of both parts", f, cfg.Points, written)
	}

	res.Engine, res.Repeat = "memory", 1
	r := Report{RunID: "test", Env: harness.Environment{Start: time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)}, Results: []*Result{res}}
	if text := r.Page().Text(); !strings.Contains(text, "Warm-up (the first 400ms") || !strings.Contains(text, "p99.99") {
		t.Errorf("the report lacks the warm-up or p99.99:\n%s", text)
	}
	var b bytes.Buffer
	if err := r.WriteLatencyLog(&b); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for _, op := range warm.Operations {
		want["memory/warmup/"+op.Kind] = op.Latency.Count
	}
	for _, op := range res.Operations {
		want["memory/"+op.Kind] = op.Latency.Count
	}
	text := b.String()
	lr := hdrhistogram.NewHistogramLogReader(&b)
	for {
		h, err := lr.NextIntervalHistogram()
		if h == nil || errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n, ok := want[h.Tag()]
		if !ok || h.TotalCount() != n {
			t.Errorf("histogram %q of %d values; want %d (known: %v)", h.Tag(), h.TotalCount(), n, ok)
		}
		delete(want, h.Tag())
	}
	if len(want) > 0 {
		t.Errorf("the log lacks %v:\n%s", want, text)
	}
}

// TestWarmupRefused: a warm-up as long as the run leaves nothing to
// measure, and is refused.
func TestWarmupRefused(t *testing.T) {
	cfg := smallConfig()
	cfg.Warmup = cfg.Duration
	if err := cfg.Validate(); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "-warmup") {
		t.Errorf("Validate: %v, want a refusal naming -warmup", err)
	}
}
