package steady

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

// TestWarmupAndLatencyLog: a run with a warm-up measures its first part
// apart, writes, commits and every query kind in both parts have the
// percentiles asked for, and the latency log it writes is read back by
// HdrHistogram's own log reader, one histogram per kind of each part
// holding that kind's count.
func TestWarmupAndLatencyLog(t *testing.T) {
	cfg := smallConfig()
	cfg.Warmup = 500 * time.Millisecond
	cfg.Percentiles, cfg.Distributions = []float64{99.99}, true
	res, err := Run(memory.New(), t.TempDir(), cfg)
	checkClean(t, res, err)
	w := res.Warmup
	if w == nil || w.Elapsed < 400*time.Millisecond || w.Elapsed > 800*time.Millisecond || w.Written == 0 || w.Written >= res.Written {
		t.Fatalf("warm-up %+v of a run writing %d points: want about 500ms and part of them", w, res.Written)
	}
	key := measure.PercentileKey(99.99)
	want := map[string]int64{}
	for _, part := range []struct {
		prefix        string
		write, commit *measure.Percentiles
		wd, cd        measure.Detail
		queries       []Query
	}{{"warmup/", w.Write, w.Commit, w.WriteDetail, w.CommitDetail, w.Queries}, {"", res.Write, res.Commit, res.WriteDetail, res.CommitDetail, res.Queries}} {
		if part.write == nil || part.commit == nil || part.wd.Percentiles[key] < part.write.P99 || len(part.wd.Distribution) == 0 || len(part.cd.Distribution) == 0 {
			t.Fatalf("%swrite %+v %v, commit %+v", part.prefix, part.write, part.wd.Percentiles, part.commit)
		}
		want["memory/"+part.prefix+"write"], want["memory/"+part.prefix+"commit"] = part.write.Count, part.commit.Count
		if len(part.queries) != 5 {
			t.Fatalf("%squeries %+v, want every kind", part.prefix, part.queries)
		}
		for _, q := range part.queries {
			if q.Count == 0 || q.Percentiles[key] < q.Latency.P99 || len(q.Distribution) == 0 {
				t.Errorf("%s%s: %d queries, percentiles %v, %d bytes of distribution", part.prefix, q.Kind, q.Count, q.Percentiles, len(q.Distribution))
			}
			want["memory/"+part.prefix+q.Kind] = q.Count
		}
	}

	res.Engine, res.Repeat = "memory", 1
	r := Report{RunID: "test", Env: harness.Environment{Start: time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)}, Results: []*Result{res}}
	if text := r.Page().Text(); !strings.Contains(text, "Warm-up (the first 500ms") || !strings.Contains(text, "write p99.99") {
		t.Errorf("the report lacks the warm-up or p99.99:\n%s", text)
	}
	var b bytes.Buffer
	if err := r.WriteLatencyLog(&b); err != nil {
		t.Fatal(err)
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
