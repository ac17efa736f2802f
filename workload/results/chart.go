package results

import (
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
)

// Value is one run's figure at a point of a chart: OK if the run has it,
// Failed if the part it is of failed, Mark to ring the point (an event
// in it, such as a write stall).
type Value struct {
	V                float64
	OK, Failed, Mark bool
}

// series are a chart's series, one per engine, of n points each: point i
// of an engine is the median and spread of get(i, r) over its runs that
// have it, failed if one of those failed, ringed if any run marks it.
func (s *Set[R]) series(n int, get func(i int, r *R) Value) []report.ChartSeries {
	var out []report.ChartSeries
	for _, g := range s.Groups {
		se := report.ChartSeries{Name: g.Engine}
		for i := range n {
			var vs []float64
			p := report.Point{}
			for _, r := range g.Runs {
				v := get(i, r)
				p.Mark = p.Mark || v.Mark
				if v.OK {
					vs = append(vs, v.V)
					p.Failed = p.Failed || v.Failed
				}
			}
			p.Stats = report.Summarize(vs)
			se.Points = append(se.Points, p)
		}
		out = append(out, se)
	}
	return out
}

// Chart is c with groups and a series per engine through them (series).
func (s *Set[R]) Chart(c report.Chart, groups []string, get func(i int, r *R) Value) report.Chart {
	c.Groups = groups
	c.Series = s.series(len(groups), get)
	return c
}

// PercentileChart is a latency distribution: a line per engine through
// its percentiles. lat is a run's latency (nil if it has none) and
// whether its part failed.
func (s *Set[R]) PercentileChart(title string, lat func(*R) (*measure.Percentiles, bool)) report.Chart {
	ps := report.Percentiles()
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	c := report.Chart{Title: title, Kind: report.Lines, Format: report.FormatDuration, Unit: "ns"}
	return s.Chart(c, names, func(i int, r *R) Value {
		l, failed := lat(r)
		if l == nil || l.Count == 0 {
			return Value{}
		}
		return Value{V: float64(ps[i].Of(l)), OK: true, Failed: failed}
	})
}

// BytesPerPointChart is a bar per engine of its bytes per point at the
// end of a run that measures no live points over time (mixed, steady):
// of a run, get returns the figure (0: none) and whether the run failed.
func (s *Set[R]) BytesPerPointChart(get func(*R) (v float64, failed bool)) report.Chart {
	return s.Chart(report.Chart{Title: "Bytes per point at the end", Note: "Disk used over the points the final check read (16 raw bytes: a timestamp and a float64). Lower is better.",
		Kind: report.Bars, Format: report.Sig3}, []string{"end of run"},
		func(_ int, r *R) Value {
			v, failed := get(r)
			return Value{V: v, OK: v > 0, Failed: failed}
		})
}

// Stacked is c, a bar chart of one group, with a bar per engine split
// into parts (report.Point.Stack): part k of a run is parts[k](r), ok if
// the run has it. Each part is the median of the engine's runs, and the
// bar as tall as the median of their sums.
func (s *Set[R]) Stacked(c report.Chart, group string, parts []func(*R) (float64, bool)) report.Chart {
	c = s.Chart(c, []string{group}, func(_ int, r *R) Value {
		v := Value{OK: true}
		for _, part := range parts {
			x, ok := part(r)
			v.V, v.OK = v.V+x, v.OK && ok
		}
		return v
	})
	for _, part := range parts {
		for i, se := range s.series(1, func(_ int, r *R) Value { x, ok := part(r); return Value{V: x, OK: ok} }) {
			p := &c.Series[i].Points[0]
			p.Stack = append(p.Stack, se.Points[0].Median)
		}
	}
	return c
}

// Stalling is an interval of a run's figures over time, which knows
// whether the engine stalled writes in it.
type Stalling interface{ Stalled() bool }

// InCell are the intervals of ivs that began in cell i of a timeline
// of cells of length cell (start is an interval's beginning), and whether
// the engine stalled in any of them.
func InCell[I Stalling](ivs []I, start func(I) time.Duration, cell time.Duration, i int) ([]I, bool) {
	var in []I
	stalled := false
	lo, hi := time.Duration(i)*cell, time.Duration(i+1)*cell
	for _, iv := range ivs {
		if t := start(iv); t >= lo && t < hi {
			in = append(in, iv)
			stalled = stalled || iv.Stalled()
		}
	}
	return in, stalled
}

// CellLabels are the groups of a timeline of n cells of length cell: when
// each cell starts.
func CellLabels(cell time.Duration, n int) []string {
	var out []string
	for i := range n {
		out = append(out, report.Duration(time.Duration(i)*cell))
	}
	return out
}

// Drawn reports whether c has something to show: a figure of any
// engine, and for lines through groups (a timeline, percentiles) at
// least two groups, since a line through one is a lone dot (a step
// shorter than one interval).
func Drawn(c report.Chart) bool {
	if c.Kind == report.Lines && len(c.Groups) < 2 {
		return false
	}
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.N > 0 {
				return true
			}
		}
	}
	return false
}
