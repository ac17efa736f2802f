package report

import (
	"time"

	"github.com/tsbench/storage/internal/measure"
)

// WrittenCell is the bytes the OS wrote, "n/a" if it did not count them.
func WrittenCell(t *measure.IO) Cell {
	if t == nil {
		return Cell{Text: "n/a"}
	}
	return BytesCell(t.WriteBytes)
}

// ReadCell is the bytes the OS read, "n/a" if it did not count them.
func ReadCell(t *measure.IO) Cell {
	if t == nil {
		return Cell{Text: "n/a"}
	}
	return BytesCell(t.ReadBytes)
}

// PeakRSSCell is a peak resident memory, "n/a" if it could not be read
// (0).
func PeakRSSCell(n int64) Cell {
	if n == 0 {
		return Cell{Text: "n/a"}
	}
	return BytesCell(n)
}

// Percentile is a figure of a latency distribution, a row of the latency
// tables.
type Percentile struct {
	Name string
	Of   func(*measure.Percentiles) time.Duration
}

// Percentiles are the rows of a latency table, in order: p50, p99, p99.9
// and max.
func Percentiles() []Percentile {
	return []Percentile{
		{"p50", func(l *measure.Percentiles) time.Duration { return l.P50 }},
		{"p99", func(l *measure.Percentiles) time.Duration { return l.P99 }},
		{"p99.9", func(l *measure.Percentiles) time.Duration { return l.P999 }},
		{"max", func(l *measure.Percentiles) time.Duration { return l.Max }},
	}
}

// Cell is p of l, "-" if l holds no latencies.
func (p Percentile) Cell(l *measure.Percentiles) Cell {
	if l == nil || l.Count == 0 {
		return None
	}
	return DurationCell(p.Of(l))
}
