package workload

import (
	"time"

	"github.com/tsbench/storage/internal/report"
)

// charts are the HTML report's pictures: per step, time, throughput and
// CPU as bars; the DB size after each step as lines; latency percentile
// curves per step; throughput and p99 over time; write amplification
// and peak memory.
func (r Report) charts() []report.Chart {
	timed := []string{StepWrite, StepQuery, StepDelete, StepQueryAfterDelete, StepWriteMore}
	writes := []string{StepWrite, StepDelete, StepCompact, StepWriteMore}
	positive := func(v float64) (float64, bool) { return v, v > 0 }
	latency := report.Chart{Title: "Latency percentiles",
		Note: "Write: per batch; query: per series scan; delete: per series DeleteRange. Lower is better."}
	for _, step := range timed {
		latency.Panels = append(latency.Panels, r.percentileChart(step))
	}
	out := []report.Chart{
		r.stepChart("Time per step", "Time inside engine calls. Lower is better.", report.Bars, StepNames, "ns",
			func(s *Step) (float64, bool) { return float64(s.Time), true }),
		r.stepChart("Throughput", "Points per second of engine time. Higher is better.", report.Bars, timed, "points/s",
			func(s *Step) (float64, bool) { return positive(s.PointsPerSec) }),
		r.stepChart("DB size after each step", "Bytes of data in the engine's directory (disk used). Lower is better.", report.Lines, StepNames, "bytes",
			func(s *Step) (float64, bool) { return float64(s.Disk.Used), true }),
		latency,
	}
	if r.any(func(s *Step) bool { return s.EngineSize != nil }) {
		// etcd's directory holds preallocated logs far beyond its data;
		// what the engine says is in use is the fairer size.
		out = append(out, r.stepChart("Engine: in use after each step", "Bytes of data as the engine reports them (engine.Sizer), free pages and preallocated space left out; engines that report none are missing. Lower is better.",
			report.Lines, StepNames, "bytes", func(s *Step) (float64, bool) {
				if s.EngineSize == nil {
					return 0, false
				}
				return float64(s.EngineSize.InUse), true
			}))
	}
	out = append(out, r.timelineCharts()...)
	return append(out,
		r.stepChart("CPU time", "User + system time of every thread, background work included. Lower is better.", report.Bars, StepNames, "ns",
			func(s *Step) (float64, bool) { return float64(s.CPUUser + s.CPUSys), true }),
		r.stepChart("Write amplification", "Bytes the OS wrote over the logical bytes of the step. Lower is better.", report.Bars, writes, "",
			func(s *Step) (float64, bool) { return positive(s.WriteAmp) }),
		r.stepChart("Peak private memory", "Peak anonymous memory of the engine's process during the step (the Go runtime's part included), "+
			"without the pages of files it maps, which the kernel can drop. Lower is better.", report.Bars, StepNames, "bytes",
			func(s *Step) (float64, bool) {
				if s.Memory == nil {
					return 0, false
				}
				return positive(float64(s.Memory.Private))
			}),
		r.stepChart("Peak mapped file pages", "File pages mapped into the engine's process (LMDB's and bbolt's store, LevelDB's tables): "+
			"page cache, counted in RSS. Not judged.", report.Bars, StepNames, "bytes",
			func(s *Step) (float64, bool) {
				if s.Memory == nil {
					return 0, false
				}
				return positive(float64(s.Memory.File))
			}),
	)
}

// stepChart is a chart of one figure of the steps, one series per
// engine, each point the median and spread of the engine's runs.
func (r Report) stepChart(title, note string, kind report.ChartKind, steps []string, unit string, get func(*Step) (float64, bool)) report.Chart {
	cfg := r.config()
	c := report.Chart{Title: title, Note: note, Kind: kind, Format: report.UnitFormat(unit), Unit: unit}
	for _, s := range steps {
		c.Groups = append(c.Groups, Label(s, cfg))
	}
	for _, g := range r.groups() {
		se := report.ChartSeries{Name: g.engine}
		for _, step := range steps {
			se.Points = append(se.Points, g.point(step, get))
		}
		c.Series = append(c.Series, se)
	}
	return c
}

// percentileChart is the latency distribution of one step: a line per
// engine through its percentiles.
func (r Report) percentileChart(step string) report.Chart {
	c := report.Chart{Title: Label(step, r.config()), Kind: report.Lines, Format: report.FormatDuration, Unit: "ns"}
	ps := report.Percentiles()
	for _, p := range ps {
		c.Groups = append(c.Groups, p.Name)
	}
	for _, g := range r.groups() {
		se := report.ChartSeries{Name: g.engine}
		for _, p := range ps {
			se.Points = append(se.Points, g.point(step, func(s *Step) (float64, bool) {
				if s.Latency == nil || s.Latency.Count == 0 {
					return 0, false
				}
				return float64(p.Of(s.Latency)), true
			}))
		}
		c.Series = append(c.Series, se)
	}
	return c
}

// point is a figure of one step over the engine's runs that have it.
func (g group) point(step string, get func(*Step) (float64, bool)) report.Point {
	var vs []float64
	failed := false
	for _, res := range g.runs {
		st := res.Step(step)
		if st == nil {
			continue
		}
		if v, ok := get(st); ok {
			vs = append(vs, v)
			failed = failed || st.Error != ""
		}
	}
	return report.Point{Stats: report.Summarize(vs), Failed: failed}
}

// maxTimelineCells is how many points a line of an over-time chart has
// at most: longer steps are drawn in coarser cells.
const maxTimelineCells = 240

// timelineCharts are the steps' figures over time, a panel per step that
// has intervals: points per second and the p99 latency of the calls that
// ended in each cell of time, a line per engine, rings where the engine
// reported a write stall.
func (r Report) timelineCharts() []report.Chart {
	rate := report.Chart{Title: "Throughput over time",
		Note: "Points per second of wall time in each cell of the step; a ring marks a cell in which the engine reported a write stall. Higher is better."}
	p99 := report.Chart{Title: "p99 latency over time",
		Note: "The highest p99 of the intervals in each cell (write: per batch; query: per series scan; delete: per series DeleteRange); rings mark write stalls. Lower is better."}
	cfg := r.config()
	for _, step := range StepNames {
		cell, cells := r.timelineCells(step)
		if cells == 0 {
			continue
		}
		label := Label(step, cfg)
		rc := report.Chart{Title: label, Kind: report.Lines, Format: report.Rate, Unit: "points/s"}
		lc := report.Chart{Title: label, Kind: report.Lines, Format: report.FormatDuration, Unit: "ns"}
		for i := range cells {
			g := report.Duration(time.Duration(i) * cell)
			rc.Groups, lc.Groups = append(rc.Groups, g), append(lc.Groups, g)
		}
		for _, g := range r.groups() {
			rs, ls := report.ChartSeries{Name: g.engine}, report.ChartSeries{Name: g.engine}
			for i := range cells {
				rs.Points = append(rs.Points, g.cellPoint(step, cell, i, cellRate))
				ls.Points = append(ls.Points, g.cellPoint(step, cell, i, cellP99))
			}
			rc.Series, lc.Series = append(rc.Series, rs), append(lc.Series, ls)
		}
		if step != StepCompact { // it counts no points
			rate.Panels = append(rate.Panels, rc)
		}
		if hasFigures(lc) {
			p99.Panels = append(p99.Panels, lc)
		}
	}
	var out []report.Chart
	for _, c := range []report.Chart{rate, p99} {
		if len(c.Panels) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// hasFigures reports whether any engine has a figure in c.
func hasFigures(c report.Chart) bool {
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.N > 0 {
				return true
			}
		}
	}
	return false
}

// timelineCells is the cell length and count that cover step's longest
// run: the first interval length, doubled until every cell holds the
// start of an interval (intervals run a little longer than asked: they
// close on the monitor's tick) and at most maxTimelineCells cells cover
// it; 0 cells if no run has intervals.
func (r Report) timelineCells(step string) (time.Duration, int) {
	var end, longest time.Duration
	for _, res := range r.results() {
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

// cellPoint is a figure of the intervals of step that began in cell i,
// over the engine's runs that have them, marked if any stalled.
func (g group) cellPoint(step string, cell time.Duration, i int, get func([]Interval) (float64, bool)) report.Point {
	var vs []float64
	var p report.Point
	lo, hi := time.Duration(i)*cell, time.Duration(i+1)*cell
	for _, res := range g.runs {
		st := res.Step(step)
		if st == nil {
			continue
		}
		var in []Interval
		for _, iv := range st.Intervals {
			if iv.Start >= lo && iv.Start < hi {
				in = append(in, iv)
				p.Mark = p.Mark || iv.Stalled()
			}
		}
		if v, ok := get(in); ok && len(in) > 0 {
			vs = append(vs, v)
			p.Failed = p.Failed || st.Error != ""
		}
	}
	p.Stats = report.Summarize(vs)
	return p
}
