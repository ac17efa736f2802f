package micro

import (
	"fmt"

	"github.com/tsbench/storage/internal/report"
)

// charts are the HTML report's pictures: per benchmark, time per
// operation, throughput and CPU as bars, the store's size after each
// write, and latency percentile curves.
func (r Report) charts() []report.Chart {
	names := r.config().Benchmarks
	labels := rowLabels(names)
	all := make([]int, len(names))
	for i := range all {
		all[i] = i
	}
	var stored []int
	for i := range names {
		for _, res := range r.results() {
			if i < len(res.Benchmarks) && res.Benchmarks[i].Storage != nil {
				stored = append(stored, i)
				break
			}
		}
	}
	latency := report.Chart{Title: "Latency percentiles",
		Note: fmt.Sprintf("Per operation; batch writes per batch; scans per %d entries. Lower is better.", ScanChunk)}
	for i := range names {
		latency.Panels = append(latency.Panels, r.percentileChart(i, labels[i]))
	}
	timed := func(b *Bench) bool { return b.Ops > 0 && b.Time > 0 }
	return []report.Chart{
		r.benchChart("Time per operation", "Engine time over operations. Lower is better.", all, "ns", func(b *Bench) (float64, bool) {
			return float64(b.Time) / float64(max(b.Ops, 1)), timed(b)
		}),
		r.benchChart("Throughput", "Operations per second of engine time. Higher is better.", all, "ops/s", func(b *Bench) (float64, bool) {
			return b.OpsPerSec, timed(b)
		}),
		r.benchChart("Store size after writes", "Bytes of data once the engine closed (disk used). Lower is better.", stored, "bytes", func(b *Bench) (float64, bool) {
			if b.Storage == nil {
				return 0, false
			}
			return float64(b.Storage.Disk.Used), true
		}),
		latency,
		r.benchChart("CPU time", "User + system time of every thread, the close after a write included. Lower is better.", all, "ns", func(b *Bench) (float64, bool) {
			return float64(b.CPUUser + b.CPUSys), true
		}),
	}
}

// benchChart is a bar chart of one figure of the benchmarks at indices,
// one series per engine, each bar the median and spread of its runs.
func (r Report) benchChart(title, note string, indices []int, unit string, get func(*Bench) (float64, bool)) report.Chart {
	labels := rowLabels(r.config().Benchmarks)
	c := report.Chart{Title: title, Note: note, Kind: report.Bars, Format: report.UnitFormat(unit), Unit: unit}
	for _, i := range indices {
		c.Groups = append(c.Groups, labels[i])
	}
	for _, g := range r.groups() {
		se := report.ChartSeries{Name: g.engine}
		for _, i := range indices {
			se.Points = append(se.Points, g.point(i, get))
		}
		c.Series = append(c.Series, se)
	}
	return c
}

// percentileChart is the latency distribution of benchmark i: a line per
// engine through its percentiles.
func (r Report) percentileChart(i int, label string) report.Chart {
	c := report.Chart{Title: label, Kind: report.Lines, Format: report.FormatDuration, Unit: "ns"}
	ps := report.Percentiles()
	for _, p := range ps {
		c.Groups = append(c.Groups, p.Name)
	}
	for _, g := range r.groups() {
		se := report.ChartSeries{Name: g.engine}
		for _, p := range ps {
			se.Points = append(se.Points, g.point(i, func(b *Bench) (float64, bool) {
				if b.Latency == nil || b.Latency.Count == 0 {
					return 0, false
				}
				return float64(p.Of(b.Latency)), true
			}))
		}
		c.Series = append(c.Series, se)
	}
	return c
}
