package measure

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// maxLatency is the largest duration a Histogram resolves; longer ones
// are recorded as this and still show as the exact Max.
const maxLatency = time.Hour

// Histogram collects durations with 3 significant digits in constant
// memory (HDR histogram), for percentiles of millions of operations.
// Record does not allocate. It is not safe for concurrent use.
type Histogram struct {
	h   *hdrhistogram.Histogram
	max time.Duration
}

// NewHistogram returns an empty histogram of durations from 1 ns to an
// hour.
func NewHistogram() *Histogram {
	return &Histogram{h: hdrhistogram.New(1, int64(maxLatency), 3)}
}

// Record adds one duration.
func (h *Histogram) Record(d time.Duration) {
	h.max = max(h.max, d)
	d = min(max(d, 1), maxLatency)
	_ = h.h.RecordValue(int64(d)) // cannot fail: d is within range
}

// Reset empties the histogram for reuse.
func (h *Histogram) Reset() {
	h.h.Reset()
	h.max = 0
}

// Merge adds the durations recorded in o to h, so that goroutines can
// each record into their own histogram and the totals be summed once.
func (h *Histogram) Merge(o *Histogram) {
	h.h.Merge(o.h) // cannot drop any: both have the same range
	h.max = max(h.max, o.max)
}

// Percentiles summarizes the recorded durations.
func (h *Histogram) Percentiles() Percentiles {
	// A percentile is the top of its bucket, which can exceed the exact
	// maximum; clamp it so that p99.9 <= max always reads right.
	at := func(p float64) time.Duration { return min(time.Duration(h.h.ValueAtPercentile(p)), h.max) }
	return Percentiles{
		Count: h.h.TotalCount(),
		P50:   at(50),
		P99:   at(99),
		P999:  at(99.9),
		Max:   h.max,
	}
}

// Percentiles is a latency distribution. Percentiles are exact to 3
// significant digits; Max is exact.
type Percentiles struct {
	Count int64         `json:"count"`
	P50   time.Duration `json:"p50_ns"`
	P99   time.Duration `json:"p99_ns"`
	P999  time.Duration `json:"p999_ns"`
	Max   time.Duration `json:"max_ns"`
}
