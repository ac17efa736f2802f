package results

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// Cells is a figure of each engine for a table row: the median of its
// runs that have it, with their spread (report.Merge). get returns a
// run's figure, whether the run has it, and why the part the figure is
// of failed ("" if it did not), which marks the figure (report.Judge).
// An engine none of whose runs has the figure gets report.None, and one
// that failed anywhere is never best.
func (s *Set[R]) Cells(get func(*R) (report.Cell, bool, string)) []report.Cell {
	return s.cells(get, false)
}

// partCells is Cells for a figure of a part that every run has unless it
// stopped before it (a step, a benchmark): a run that lacks it marks its
// engine's figure failed.
func (s *Set[R]) partCells(get func(*R) (report.Cell, bool, string)) []report.Cell {
	return s.cells(get, true)
}

func (s *Set[R]) cells(get func(*R) (report.Cell, bool, string), stopped bool) []report.Cell {
	var out []report.Cell
	for _, g := range s.Groups {
		var cs []report.Cell
		for _, r := range g.Runs {
			if c, ok, partErr := get(r); ok {
				cs = append(cs, report.Judge(c, partErr, s.schema.Error(r)))
			}
		}
		if len(cs) == 0 {
			out = append(out, report.None)
			continue
		}
		c := report.Merge(cs)
		if stopped && len(cs) < len(g.Runs) {
			c.Failed = true // a run stopped before this part
		}
		c.Ranked = c.Ranked && g.Err == ""
		out = append(out, c)
	}
	return out
}

// Texts is a text of each engine: its runs', joined by " / " where they
// differ; report.None where none has one.
func (s *Set[R]) Texts(get func(*R) string) []report.Cell {
	var out []report.Cell
	for _, g := range s.Groups {
		var ts []string
		for _, r := range g.Runs {
			if t := get(r); t != "" && !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
		if len(ts) == 0 {
			out = append(out, report.None)
			continue
		}
		out = append(out, report.Cell{Text: strings.Join(ts, " / ")})
	}
	return out
}

// Metric is one figure of P (a step, a benchmark, a whole run) as a
// table row shows it.
type Metric[P any] struct {
	Name string
	Best report.Better
	Get  func(*P) report.Cell
}

// row is the row of m, a figure of the whole run, over the runs that
// ran.
func (s *Set[R]) row(m Metric[R]) report.Row {
	return report.Row{Labels: []string{m.Name}, Best: m.Best, Cells: s.Cells(func(r *R) (report.Cell, bool, string) {
		return m.Get(r), s.schema.Ran(r), ""
	})}
}

// Rows are the rows of metrics, figures of the whole run.
func (s *Set[R]) Rows(metrics ...Metric[R]) []report.Row {
	var out []report.Row
	for _, m := range metrics {
		out = append(out, s.row(m))
	}
	return out
}

// Of finds a part P in a run: Get returns it, nil if the run has none,
// and Error why it failed.
type Of[R, P any] struct {
	Get   func(*R) *P
	Error func(*P) string
}

// MetricCells are the figure m of part for each engine: the median of
// its runs, a run that lacks the part (it stopped before it) marking the
// figure failed.
func MetricCells[R, P any](s *Set[R], part Of[R, P], m Metric[P]) []report.Cell {
	return s.partCells(func(r *R) (report.Cell, bool, string) {
		p := part.Get(r)
		if p == nil {
			return report.Cell{}, false, ""
		}
		return m.Get(p), true, part.Error(p)
	})
}

// MetricRows are a row per metric of part, labelled with label on the
// first and with each metric's name: a table of several parts' figures
// with two label columns.
func MetricRows[R, P any](s *Set[R], label string, part Of[R, P], metrics []Metric[P]) []report.Row {
	var out []report.Row
	for i, m := range metrics {
		l := ""
		if i == 0 {
			l = label
		}
		out = append(out, report.Row{Labels: []string{l, m.Name}, Cells: MetricCells(s, part, m), Best: m.Best})
	}
	return out
}

// VerifyCell is what v found, reads counting unit ("points"): "ok, N
// points", or the problems counted, failed; report.None for no reads.
func VerifyCell(v *harness.Verification, unit string) report.Cell {
	switch {
	case v == nil:
		return report.None
	case v.OK():
		return report.Cell{Text: "ok, " + harness.Count(v.Read) + " " + unit}
	}
	text := fmt.Sprintf("%d missing, %d unexpected, %d wrong", v.Missing, v.Unexpected, v.Wrong)
	if v.Expired > 0 {
		text += fmt.Sprintf(", %d expired", v.Expired)
	}
	if v.Expected > 0 {
		text += " of " + harness.Count(v.Expected) + " expected"
	} else {
		text += " of " + harness.Count(v.Read) + " read"
	}
	return report.Cell{Text: text, Failed: true}
}

// BytesPerPointCell is a figure of bytes per point (disk used over the
// points the store holds); report.None for 0, a store that held none or
// a run that did not measure it.
func BytesPerPointCell(v float64) report.Cell {
	if v == 0 {
		return report.None
	}
	return report.Sig3Cell(v)
}
