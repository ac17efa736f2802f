package timeseries

import (
	"sync"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
)

// intervalsPerLength is how many intervals a step records before each
// doubling of their length, so that a step of ten hours keeps about 7,000
// and one of a minute keeps its 60 one-second intervals. Intervals are
// never merged: each one's percentiles stay exact.
const intervalsPerLength = 1800

// Interval is one slice of a step's wall time (Step.Intervals): what the
// step got done in it and how long the engine calls that ended in it took.
// An interval in which an engine stalled shows few points and a long
// latency, or none at all when a call outlasts it.
type Interval struct {
	// Start is when the interval began, from the step's start.
	Start time.Duration `json:"start_ns"`
	// Length is the interval's wall time as measured: suite.DefaultInterval (or
	// Config.Interval), doubled after every 1,800 intervals; a step's
	// last interval is shorter.
	Length time.Duration `json:"length_ns"`
	// Points is how many points the step wrote, read or deleted in the
	// interval (0 in compaction, which counts none).
	Points int64 `json:"points"`
	// PointsPerSec is Points over Length: wall time, so the harness's own
	// work (generation, verification) is in it, unlike Step.PointsPerSec.
	PointsPerSec float64 `json:"points_per_sec"`
	// EngineTime is the time spent inside the engine calls that ended in
	// the interval, as Step.Time counts it.
	EngineTime time.Duration `json:"engine_time_ns"`
	// Latency is the distribution of the engine calls that ended in the
	// interval; nil if none did.
	Latency *measure.Percentiles `json:"latency,omitempty"`
	// EngineMetrics is what the engine's counters (engine.ReadMetrics)
	// rose by in the interval, such as stalls and compact_bytes; nil for
	// an engine that reports none.
	EngineMetrics engine.Metrics `json:"engine_metrics,omitempty"`
}

// Stalled reports whether the engine says it stalled or slowed writes in
// the interval.
func (iv Interval) Stalled() bool {
	return iv.EngineMetrics[engine.MetricStalls] > 0 || iv.EngineMetrics[engine.MetricStallTime] > 0
}

// timeline records a step's intervals. The step's goroutine adds each
// engine call's duration (record); the span's sampler closes each
// interval when its time is up (roll), off the timed path.
type timeline struct {
	length  time.Duration // of the current interval
	start   time.Time     // of the step
	begin   time.Time     // of the current interval
	lastN   int64         // points done when it began
	metrics engine.Metrics
	read    func() engine.Metrics // the engine's metrics, nil if it has none
	out     []Interval

	mu   sync.Mutex
	cur  *measure.Histogram // calls that ended in the current interval
	busy time.Duration      // their time
	free *measure.Histogram // the previous interval's, emptied: roll's own
}

// newTimeline starts a timeline at start with intervals of length; read,
// if not nil, reads the engine's metrics.
func newTimeline(start time.Time, length time.Duration, read func() engine.Metrics) *timeline {
	tl := &timeline{length: length, start: start, begin: start, read: read,
		cur: measure.NewHistogram(), free: measure.NewHistogram()}
	if read != nil {
		tl.metrics = read()
	}
	return tl
}

// record adds one engine call of duration d.
func (tl *timeline) record(d time.Duration) {
	tl.mu.Lock()
	tl.cur.Record(d)
	tl.busy += d
	tl.mu.Unlock()
}

// spend adds engine time that is not a call of the step's distribution
// (compaction's one call).
func (tl *timeline) spend(d time.Duration) {
	tl.mu.Lock()
	tl.busy += d
	tl.mu.Unlock()
}

// due reports whether the current interval's time is up at now.
func (tl *timeline) due(now time.Time) bool { return now.Sub(tl.begin) >= tl.length }

// roll closes the current interval at now, with done points done since
// the step began, and starts the next.
func (tl *timeline) roll(now time.Time, done int64) {
	tl.mu.Lock()
	h, busy := tl.cur, tl.busy
	tl.cur, tl.busy = tl.free, 0
	tl.mu.Unlock()

	iv := Interval{Start: tl.begin.Sub(tl.start), Length: now.Sub(tl.begin), Points: done - tl.lastN, EngineTime: busy}
	if secs := iv.Length.Seconds(); secs > 0 {
		iv.PointsPerSec = float64(iv.Points) / secs
	}
	if p := h.Percentiles(); p.Count > 0 {
		iv.Latency = &p
	}
	h.Reset()
	tl.free = h
	if tl.read != nil {
		m := tl.read()
		iv.EngineMetrics = m.Since(tl.metrics)
		tl.metrics = m
	}
	tl.out = append(tl.out, iv)
	tl.begin, tl.lastN = now, done
	if len(tl.out)%intervalsPerLength == 0 {
		tl.length *= 2
	}
}

// end closes the last interval at now, if any time passed in it, and
// returns all of them.
func (tl *timeline) end(now time.Time, done int64) []Interval {
	if now.After(tl.begin) {
		tl.roll(now, done)
	}
	return tl.out
}
