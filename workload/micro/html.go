package micro

import (
	"fmt"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/results"
)

// charts are the HTML report's pictures: per benchmark, time per
// operation, throughput and CPU as bars, the store's size and bytes per
// entry after each write, and latency percentile curves.
func (r Report) charts(set *results.Set[Result]) []report.Chart {
	names := r.config().Benchmarks
	labels := rowLabels(names)
	all := make([]int, len(names))
	for i := range all {
		all[i] = i
	}
	// stored are the benchmarks after which a store was measured, held
	// those that left entries in it.
	var stored, held []int
	for i := range names {
		if has(set, i, func(b *Bench) bool { return b.Storage != nil }) {
			stored = append(stored, i)
		}
		if has(set, i, func(b *Bench) bool { return b.Storage != nil && b.Storage.Entries > 0 }) {
			held = append(held, i)
		}
	}
	latency := report.Chart{Title: "Latency percentiles",
		Note: fmt.Sprintf("Per operation; batch writes per batch; scans per %d entries. Lower is better.", ScanChunk)}
	for i := range names {
		latency.Panels = append(latency.Panels, set.PercentileChart(labels[i], func(res *Result) (*measure.Percentiles, bool) {
			if b := benchOf(i).Get(res); b != nil {
				return b.Latency, b.Error != ""
			}
			return nil, false
		}))
	}
	timed := func(b *Bench) bool { return b.Ops > 0 && b.Time > 0 }
	return []report.Chart{
		r.benchChart(set, "Time per operation", "Engine time over operations. Lower is better.", all, "ns", func(b *Bench) (float64, bool) {
			return float64(b.Time) / float64(max(b.Ops, 1)), timed(b)
		}),
		r.benchChart(set, "Throughput", "Operations per second of engine time. Higher is better.", all, "ops/s", func(b *Bench) (float64, bool) {
			return b.OpsPerSec, timed(b)
		}),
		r.benchChart(set, "Store size after writes", "Bytes of data once the engine closed (disk used). Lower is better.", stored, "bytes", func(b *Bench) (float64, bool) {
			if b.Storage == nil {
				return 0, false
			}
			return float64(b.Storage.Disk.Used), true
		}),
		r.benchChart(set, "Bytes per entry after writes", "Disk used over the entries the store holds, once the engine closed; a flat array would take the key and value size. Lower is better.", held, "", func(b *Bench) (float64, bool) {
			if b.Storage == nil || b.Storage.Entries == 0 {
				return 0, false
			}
			return b.Storage.BytesPerEntry, true
		}),
		latency,
		r.benchChart(set, "CPU time", "User + system time of every thread, the close after a write included. Lower is better.", all, "ns", func(b *Bench) (float64, bool) {
			return float64(b.CPUUser + b.CPUSys), true
		}),
	}
}

// benchChart is a bar chart of one figure of the benchmarks at indices,
// one series per engine, each bar the median and spread of its runs.
func (r Report) benchChart(set *results.Set[Result], title, note string, indices []int, unit string, get func(*Bench) (float64, bool)) report.Chart {
	labels := rowLabels(r.config().Benchmarks)
	var groups []string
	for _, i := range indices {
		groups = append(groups, labels[i])
	}
	c := report.Chart{Title: title, Note: note, Kind: report.Bars, Format: report.UnitFormat(unit), Unit: unit}
	return set.Chart(c, groups, func(k int, res *Result) results.Value {
		b := benchOf(indices[k]).Get(res)
		if b == nil {
			return results.Value{}
		}
		v, ok := get(b)
		return results.Value{V: v, OK: ok, Failed: b.Error != ""}
	})
}
