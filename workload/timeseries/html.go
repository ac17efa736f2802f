package timeseries

import (
	"fmt"
	"strings"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/results"
)

// charts are the HTML report's pictures: per step, time, throughput and
// CPU as bars; the DB size after each step as lines; latency percentile
// curves per step; throughput and p99 over time; write amplification,
// peak memory, and the kinds of memory stacked.
func (r Report) charts(set *results.Set[Result]) []report.Chart {
	timed := []string{StepWrite, StepQuery, StepDelete, StepQueryAfterDelete, StepWriteMore}
	writes := []string{StepWrite, StepDelete, StepCompact, StepWriteMore}
	positive := func(v float64) (float64, bool) { return v, v > 0 }
	latency := report.Chart{Title: "Latency percentiles",
		Note: "Write: per batch; query: per series scan; delete: per series DeleteRange. Lower is better."}
	for _, step := range timed {
		latency.Panels = append(latency.Panels, set.PercentileChart(Label(step, r.config()), func(res *Result) (*measure.Percentiles, bool) {
			if st := res.Step(step); st != nil {
				return st.Latency, st.Error != ""
			}
			return nil, false
		}))
	}
	out := []report.Chart{
		r.stepChart(set, "Time per step", "Time inside engine calls. Lower is better.", report.Bars, StepNames, "ns",
			func(s *Step) (float64, bool) { return float64(s.Time), true }),
		r.stepChart(set, "Throughput", "Points per second of engine time. Higher is better.", report.Bars, timed, "points/s",
			func(s *Step) (float64, bool) { return positive(s.PointsPerSec) }),
		r.stepChart(set, "DB size after each step", "Bytes of data in the engine's directory (disk used). Lower is better.", report.Lines, StepNames, "bytes",
			func(s *Step) (float64, bool) { return float64(s.Disk.Used), true }),
		r.stepChart(set, "Bytes per point after each step", "Disk used over the points the store holds (16 raw bytes: a timestamp and a float64). Lower is better.", report.Lines, StepNames, "",
			func(s *Step) (float64, bool) { return positive(s.BytesPerPoint) }),
		latency,
	}
	if r.any(func(s *Step) bool { return s.EngineSize != nil }) {
		// etcd's directory holds preallocated logs far beyond its data;
		// what the engine says is in use is the fairer size.
		out = append(out, r.stepChart(set, "Engine: in use after each step", "Bytes of data as the engine reports them (engine.Sizer), free pages and preallocated space left out; engines that report none are missing. Lower is better.",
			report.Lines, StepNames, "bytes", func(s *Step) (float64, bool) {
				if s.EngineSize == nil {
					return 0, false
				}
				return float64(s.EngineSize.InUse), true
			}))
	}
	out = append(out, r.timelineCharts(set)...)
	out = append(out,
		r.stepChart(set, "CPU time", "User + system time of every thread, background work included. Lower is better.", report.Bars, StepNames, "ns",
			func(s *Step) (float64, bool) { return float64(s.CPUUser + s.CPUSys), true }),
		r.stepChart(set, "Write amplification", "Bytes the OS wrote over the logical bytes of the step. Lower is better.", report.Bars, writes, "",
			func(s *Step) (float64, bool) { return positive(s.WriteAmp) }),
		r.stepChart(set, "Peak private memory", "Peak anonymous memory of the engine's process during the step (the Go runtime's part included), "+
			"without the pages of files it maps, which the kernel can drop. Lower is better.", report.Bars, StepNames, "bytes",
			func(s *Step) (float64, bool) {
				if s.Memory == nil {
					return 0, false
				}
				return positive(float64(s.Memory.Private))
			}),
		r.stepChart(set, "Peak mapped file pages", "File pages mapped into the engine's process (LMDB's and bbolt's store, LevelDB's tables): "+
			"page cache, counted in RSS. Not judged.", report.Bars, StepNames, "bytes",
			func(s *Step) (float64, bool) {
				if s.Memory == nil {
					return 0, false
				}
				return positive(float64(s.Memory.File))
			}),
	)
	return append(out, r.memoryCharts(set)...)
}

// memoryKinds are the parts of a step's memory peaks (Step.Memory) as
// memoryChart stacks them, bottom first: what the engine holds privately
// (for a Go engine, what it holds outside the Go heap), the Go runtime's
// memory, mapped file pages, shared memory.
var memoryKinds = []struct {
	name string
	of   func(*measure.MemoryPeaks) int64
}{
	{"engine private", func(m *measure.MemoryPeaks) int64 { return max(m.Private-m.Go, 0) }},
	{"Go runtime", func(m *measure.MemoryPeaks) int64 { return m.Go }},
	{"mapped files", func(m *measure.MemoryPeaks) int64 { return m.File }},
	{"shared", func(m *measure.MemoryPeaks) int64 { return m.Shared }},
}

// memoryCharts stack the kinds of each engine's memory in each step, a
// panel per step that sampled some; none if no step did.
func (r Report) memoryCharts(set *results.Set[Result]) []report.Chart {
	out := report.Chart{Title: "Memory by kind", Note: "Peak of each kind during the step, stacked in the engine's color from the bottom, paler " +
		"the higher: private memory of the engine (private minus the Go runtime's), the Go runtime's (heap, stacks; a Go engine's own " +
		"memory is there), mapped file pages (page cache the kernel can drop), shared memory. Each peak is sampled apart, so a stack can " +
		"exceed what the process held at one moment. Lower private memory is better."}
	var names []string
	for _, k := range memoryKinds {
		names = append(names, k.name)
	}
	cfg := r.config()
	for _, step := range StepNames {
		var parts []func(*Result) (float64, bool)
		for _, k := range memoryKinds {
			parts = append(parts, func(res *Result) (float64, bool) {
				if st := res.Step(step); st != nil && st.Memory != nil {
					return float64(k.of(st.Memory)), true
				}
				return 0, false
			})
		}
		label := Label(step, cfg)
		c := set.Stacked(report.Chart{Title: label, Kind: report.Bars, Format: report.FormatBytes, Unit: "bytes", Linear: true, Stack: names}, label, parts)
		if results.Drawn(c) {
			out.Panels = append(out.Panels, c)
		}
	}
	if len(out.Panels) == 0 {
		return nil
	}
	return []report.Chart{out}
}

// stepChart is a chart of one figure of the steps, one series per
// engine, each point the median and spread of the engine's runs.
func (r Report) stepChart(set *results.Set[Result], title, note string, kind report.ChartKind, steps []string, unit string, get func(*Step) (float64, bool)) report.Chart {
	cfg := r.config()
	var labels []string
	for _, s := range steps {
		labels = append(labels, Label(s, cfg))
	}
	c := report.Chart{Title: title, Note: note, Kind: kind, Format: report.UnitFormat(unit), Unit: unit}
	return set.Chart(c, labels, func(i int, res *Result) results.Value {
		st := res.Step(steps[i])
		if st == nil {
			return results.Value{}
		}
		v, ok := get(st)
		return results.Value{V: v, OK: ok, Failed: st.Error != ""}
	})
}

// maxTimelineCells is how many points a line of an over-time chart has
// at most: longer steps are drawn in coarser cells.
const maxTimelineCells = 240

// timelineCharts are the steps' figures over time, a panel per step that
// has intervals: points per second and the p99 latency of the calls that
// ended in each cell of time, a line per engine, rings where the engine
// reported a write stall.
func (r Report) timelineCharts(set *results.Set[Result]) []report.Chart {
	rate := report.Chart{Title: "Throughput over time",
		Note: "Points per second of wall time in each cell of the step; a ring marks a cell in which the engine reported a write stall. Higher is better."}
	p99 := report.Chart{Title: "p99 latency over time",
		Note: "The highest p99 of the intervals in each cell (write: per batch; query: per series scan; delete: per series DeleteRange); rings mark write stalls. Lower is better."}
	cfg := r.config()
	var short []string // steps with intervals but a timeline of one cell
	for _, step := range StepNames {
		cell, cells := r.timelineCells(set, step)
		if cells == 0 {
			continue
		}
		label := Label(step, cfg)
		groups := results.CellLabels(cell, cells)
		rc := set.Chart(report.Chart{Title: label, Kind: report.Lines, Format: report.Rate, Unit: "points/s"}, groups, r.cellPoints(step, cell, cellRate))
		lc := set.Chart(report.Chart{Title: label, Kind: report.Lines, Format: report.FormatDuration, Unit: "ns"}, groups, r.cellPoints(step, cell, cellP99))
		if cells < 2 {
			short = append(short, label)
			continue
		}
		if step != StepCompact { // it counts no points
			rate.Panels = append(rate.Panels, rc)
		}
		if results.Drawn(lc) {
			p99.Panels = append(p99.Panels, lc)
		}
	}
	if len(short) > 0 {
		// Said where the charts would be: a one-cell line is a lone dot.
		note := fmt.Sprintf(" Not drawn: %s, each shorter than one %v interval (-interval sets it, down to %v).",
			strings.Join(short, ", "), cfg.interval(), minInterval)
		rate.Note += note
		p99.Note += note
	}
	var out []report.Chart
	for _, c := range []report.Chart{rate, p99} {
		if len(c.Panels) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// timelineCells is the cell length and count that cover step's longest
// run: the first interval length, doubled until every cell holds the
// start of an interval (intervals run a little longer than asked: they
// close on the sampler's tick) and at most maxTimelineCells cells cover
// it; 0 cells if no run has intervals.
func (r Report) timelineCells(set *results.Set[Result], step string) (time.Duration, int) {
	var end, longest time.Duration
	for _, res := range set.All {
		st := res.Step(step)
		if st == nil || len(st.Intervals) == 0 {
			continue
		}
		last := st.Intervals[len(st.Intervals)-1]
		end = max(end, last.Start+last.Length)
		for _, iv := range st.Intervals[:len(st.Intervals)-1] { // the last one is cut short
			longest = max(longest, iv.Length)
		}
	}
	if end == 0 {
		return 0, 0
	}
	cell := r.config().interval()
	for cell < longest || end > cell*maxTimelineCells {
		cell *= 2
	}
	return cell, int((end + cell - 1) / cell)
}

// cellRate is the points per second of wall time of intervals.
func cellRate(ivs []Interval) (float64, bool) {
	var points int64
	var length time.Duration
	for _, iv := range ivs {
		points, length = points+iv.Points, length+iv.Length
	}
	return float64(points) / length.Seconds(), length > 0
}

// cellP99 is the highest p99 latency of intervals: the percentiles of
// separate intervals do not merge, and the worst is what a reader looks
// for.
func cellP99(ivs []Interval) (float64, bool) {
	var p99 time.Duration
	ok := false
	for _, iv := range ivs {
		if iv.Latency != nil {
			p99, ok = max(p99, iv.Latency.P99), true
		}
	}
	return float64(p99), ok
}

// cellPoints read a figure of the intervals of step that began in each
// cell of a run, marked where the engine stalled.
func (r Report) cellPoints(step string, cell time.Duration, get func([]Interval) (float64, bool)) func(int, *Result) results.Value {
	return func(i int, res *Result) results.Value {
		st := res.Step(step)
		if st == nil {
			return results.Value{}
		}
		in, stalled := results.InCell(st.Intervals, func(iv Interval) time.Duration { return iv.Start }, cell, i)
		v, ok := get(in)
		return results.Value{V: v, OK: ok && len(in) > 0, Failed: st.Error != "", Mark: stalled}
	}
}
