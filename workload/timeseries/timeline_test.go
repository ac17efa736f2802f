package timeseries

import (
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// TestTimeline checks what an interval holds, that a stall shows as an
// interval with no calls and the engine's stall counter, and that
// lengths double after intervalsPerLength intervals.
func TestTimeline(t *testing.T) {
	t0 := time.Unix(1000, 0)
	stalls := int64(0)
	tl := newTimeline(t0, time.Second, func() engine.Metrics { return engine.Metrics{engine.MetricStalls: stalls} })
	tl.record(2 * time.Millisecond)
	tl.record(4 * time.Millisecond)
	if tl.due(t0.Add(999 * time.Millisecond)) {
		t.Fatal("due before its length")
	}
	tl.roll(t0.Add(time.Second), 500)
	stalls = 1 // a stall: no call ends in the next interval
	tl.roll(t0.Add(2*time.Second), 500)
	tl.record(3 * time.Second)
	got := tl.end(t0.Add(2500*time.Millisecond), 600)
	if len(got) != 3 {
		t.Fatalf("%d intervals, want 3", len(got))
	}
	first, stall, last := got[0], got[1], got[2]
	if first.Points != 500 || first.PointsPerSec != 500 || first.EngineTime != 6*time.Millisecond ||
		first.Latency == nil || first.Latency.Count != 2 || first.Latency.Max != 4*time.Millisecond || first.Stalled() {
		t.Errorf("first interval %+v", first)
	}
	if stall.Start != time.Second || stall.Points != 0 || stall.Latency != nil || !stall.Stalled() {
		t.Errorf("stalled interval %+v", stall)
	}
	if last.Start != 2*time.Second || last.Length != 500*time.Millisecond || last.Points != 100 || last.PointsPerSec != 200 ||
		last.Latency == nil || last.Latency.Count != 1 || last.Stalled() {
		t.Errorf("last interval %+v", last)
	}

	tl = newTimeline(t0, time.Second, nil)
	now := t0
	for range intervalsPerLength {
		now = now.Add(time.Second)
		tl.roll(now, 0)
	}
	if tl.due(now.Add(time.Second)) || !tl.due(now.Add(2*time.Second)) {
		t.Errorf("after %d intervals the length is %v, want 2s", intervalsPerLength, tl.length)
	}
	if iv := tl.out[0]; iv.EngineMetrics != nil {
		t.Errorf("an engine without metrics has interval metrics %v", iv.EngineMetrics)
	}
}

// TestTimelineCharts checks the over-time charts: cells coarsen to cover
// the longest run, a cell's rate is its points over its intervals' time,
// its p99 the highest of theirs, and a stall rings the cell.
func TestTimelineCharts(t *testing.T) {
	cfg := Config{Points: 1000, Series: 10, Batch: 10, Interval: time.Second}
	lat := func(p99 time.Duration) *measure.Percentiles {
		return &measure.Percentiles{Count: 1, P50: p99, P99: p99, P999: p99, Max: p99}
	}
	var long []Interval
	for i := range 2 * maxTimelineCells {
		iv := Interval{Start: time.Duration(i) * time.Second, Length: time.Second, Points: 100, Latency: lat(time.Millisecond)}
		if i == 3 {
			iv.Points, iv.Latency, iv.EngineMetrics = 0, nil, engine.Metrics{engine.MetricStalls: 1}
		}
		long = append(long, iv)
	}
	short := []Interval{{Start: 0, Length: 500 * time.Millisecond, Points: 1000, Latency: lat(5 * time.Millisecond)}}
	r := Report{Results: []*Result{
		{Header: harness.Header{Engine: "slow"}, Config: cfg, Steps: []Step{{Name: StepWrite, Intervals: long}}},
		{Header: harness.Header{Engine: "fast"}, Config: cfg, Steps: []Step{{Name: StepWrite, Intervals: short}}},
	}}
	charts := r.timelineCharts(r.set())
	if len(charts) != 2 || len(charts[0].Panels) != 1 || len(charts[1].Panels) != 1 {
		t.Fatalf("charts %+v", charts)
	}
	rate, p99 := charts[0].Panels[0], charts[1].Panels[0]
	if len(rate.Groups) != maxTimelineCells || rate.Groups[1] != "2s" {
		t.Fatalf("%d cells from %v, want %d of 2s", len(rate.Groups), rate.Groups[:2], maxTimelineCells)
	}
	slow, fast := rate.Series[0].Points, rate.Series[1].Points
	if slow[0].Median != 100 || slow[1].Median != 50 || !slow[1].Mark || slow[0].Mark {
		t.Errorf("slow engine's first cells %+v %+v: want 100/s, then 50/s with a stall", slow[0], slow[1])
	}
	if fast[0].Median != 2000 || fast[1].N != 0 {
		t.Errorf("fast engine's cells %+v %+v: want 2000/s, then none", fast[0], fast[1])
	}
	if got := p99.Series[1].Points[0].Median; got != float64(5*time.Millisecond) {
		t.Errorf("fast engine's p99 %v", time.Duration(got))
	}
}

// TestTimelineChartsShortStep: a step shorter than one interval has a
// timeline of one cell, a lone dot, so it is not drawn and the charts'
// note says so; a step of several cells still is.
func TestTimelineChartsShortStep(t *testing.T) {
	cfg := Config{Points: 1000, Series: 10, Batch: 10, Interval: time.Second}
	var long []Interval
	for i := range 5 {
		long = append(long, Interval{Start: time.Duration(i) * time.Second, Length: time.Second, Points: 100})
	}
	short := []Interval{{Start: 0, Length: 300 * time.Millisecond, Points: 1000}}
	r := Report{Results: []*Result{{Header: harness.Header{Engine: "pebble"}, Config: cfg,
		Steps: []Step{{Name: StepWrite, Intervals: long}, {Name: StepQuery, Intervals: short}}}}}
	charts := r.timelineCharts(r.set())
	if len(charts) != 1 || len(charts[0].Panels) != 1 || charts[0].Panels[0].Title != Label(StepWrite, cfg) {
		t.Fatalf("charts %+v, want the write step's throughput alone", charts)
	}
	if want := "Not drawn: " + Label(StepQuery, cfg) + ", each shorter than one 1s interval"; !strings.Contains(charts[0].Note, want) {
		t.Errorf("note %q lacks %q", charts[0].Note, want)
	}
	r.Results[0].Steps = r.Results[0].Steps[1:]
	if charts := r.timelineCharts(r.set()); len(charts) != 0 {
		t.Errorf("a run of one short step drew %+v", charts)
	}
}

// BenchmarkTimelineRecord is what the over-time figures add to each
// timed engine call: one mutex-guarded histogram record beside the
// step's own (BenchmarkTimelineRecord/off), for the bound on their cost in
// docs/measuring.md.
func BenchmarkTimelineRecord(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "timeline=off"
		if on {
			name = "timeline=on"
		}
		b.Run(name, func(b *testing.B) {
			s := &stepRun{hist: measure.NewHistogram()}
			if on {
				s.tl = newTimeline(time.Now(), time.Second, nil)
			}
			for i := range b.N {
				s.add(time.Duration(i%5000) * time.Microsecond)
			}
		})
	}
}
