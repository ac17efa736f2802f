package timeseries

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// TestLatencyLog: the log a run writes is read back by HdrHistogram's own
// log reader, one histogram per step of each run, tagged, holding the
// very distribution whose percentiles the results report.
func TestLatencyLog(t *testing.T) {
	step := func(name string, n int, d time.Duration) Step {
		h := measure.NewHistogram()
		for i := range n {
			h.Record(d + time.Duration(i)*time.Microsecond)
		}
		p := h.Percentiles()
		b, err := h.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return Step{Name: name, Latency: &p, Distribution: b, Cost: harness.Cost{Wall: time.Second}}
	}
	start := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	r := Report{RunID: "20261129T030000Z-abcdef", Env: harness.Environment{Start: start}, Results: []*Result{
		{Header: harness.Header{Engine: "pebble", Repeat: 1}, Steps: []Step{step(StepWrite, 1000, time.Millisecond), step(StepQuery, 500, 50*time.Microsecond), {Name: StepCompact}}},
		{Header: harness.Header{Engine: "pebble", Repeat: 2}, Steps: []Step{step(StepWrite, 2000, 2*time.Millisecond)}},
	}}
	var b bytes.Buffer
	if err := r.WriteLatencyLog(&b); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		tag   string
		count int64
		p99   time.Duration
	}{
		{"pebble#1/write", 1000, r.Results[0].Steps[0].Latency.P99},
		{"pebble#1/query", 500, r.Results[0].Steps[1].Latency.P99},
		{"pebble#2/write", 2000, r.Results[1].Steps[0].Latency.P99},
	}
	text := b.String()
	if !strings.Contains(text, "#[StartTime: ") {
		t.Errorf("the log has no start time:\n%s", text)
	}
	lr := hdrhistogram.NewHistogramLogReader(&b)
	for i := 0; ; i++ {
		h, err := lr.NextIntervalHistogram()
		if h == nil || errors.Is(err, io.EOF) {
			if i != len(want) {
				t.Fatalf("%d histograms in the log, want %d:\n%s", i, len(want), text)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i >= len(want) {
			t.Fatalf("more histograms than steps with latency:\n%s", text)
		}
		w := want[i]
		// The reader's values are those recorded; the results clamp the
		// percentile at the exact max, which a bucket's top can exceed.
		if h.Tag() != w.tag || h.TotalCount() != w.count || min(time.Duration(h.ValueAtQuantile(99)), time.Duration(h.Max())) < w.p99 {
			t.Errorf("histogram %d: tag %q, %d values, p99 %v; want %q, %d, %v", i, h.Tag(), h.TotalCount(), time.Duration(h.ValueAtQuantile(99)), w.tag, w.count, w.p99)
		}
	}
}
