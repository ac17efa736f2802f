package results

import (
	"strings"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
)

// MemoryMetrics are the rows of memory by kind (harness.Cost.Memory) of
// P, the same in every report: the private peak (anonymous memory, what
// the machine must have), the Go runtime's part of it, and the peak of
// mapped file pages (page cache the kernel can drop). peaks is P's,
// nil if it has none.
func MemoryMetrics[P any](peaks func(*P) *measure.MemoryPeaks) []Metric[P] {
	kind := func(name string, best report.Better, get func(*measure.MemoryPeaks) int64) Metric[P] {
		return Metric[P]{name, best, func(p *P) report.Cell {
			m := peaks(p)
			if m == nil {
				return report.None
			}
			return report.BytesCell(get(m))
		}}
	}
	return []Metric[P]{
		kind("private peak", report.LowerBest, func(m *measure.MemoryPeaks) int64 { return m.Private }),
		kind("  of it Go runtime", report.NoBest, func(m *measure.MemoryPeaks) int64 { return m.Go }),
		kind("mapped files peak", report.NoBest, func(m *measure.MemoryPeaks) int64 { return m.File }),
	}
}

// LatencyMetrics are the rows of a latency distribution of P, a row per
// percentile; lat is P's, nil if it has none.
func LatencyMetrics[P any](lat func(*P) *measure.Percentiles) []Metric[P] {
	var out []Metric[P]
	for _, p := range report.Percentiles() {
		out = append(out, Metric[P]{p.Name, report.LowerBest, func(x *P) report.Cell { return p.Cell(lat(x)) }})
	}
	return out
}

// PercentileMetrics are the rows of the percentiles qs (-percentiles)
// beyond LatencyMetrics' of P, one each: of is P's, by
// measure.PercentileKey, nil if it has none.
func PercentileMetrics[P any](qs []float64, of func(*P) map[string]time.Duration) []Metric[P] {
	var out []Metric[P]
	for _, q := range qs {
		key := measure.PercentileKey(q)
		out = append(out, Metric[P]{Name: strings.TrimSuffix(key, "_ns"), Best: report.LowerBest, Get: func(p *P) report.Cell {
			d, ok := of(p)[key]
			if !ok {
				return report.None
			}
			return report.DurationCell(d)
		}})
	}
	return out
}
