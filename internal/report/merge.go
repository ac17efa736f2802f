package report

import (
	"fmt"
	"math"
)

// Merge is one cell for a figure measured in several runs of the same
// engine: the median of the numbers, followed by their spread as "±8%"
// (the larger distance from the median to the min or the max; nothing if
// every run measured the same), so that a
// difference between engines can be weighed against the noise of each. A
// single cell is returned as it is. Cells without a number (text, "-",
// "n/a") merge into the first that failed, else the first. A merged
// figure is failed if any run's was, and ranked only if every run's was.
func Merge(cells []Cell) Cell {
	switch len(cells) {
	case 0:
		return None
	case 1:
		return cells[0]
	}
	vs := make([]float64, 0, len(cells))
	failed, ranked := false, true
	for _, c := range cells {
		failed = failed || c.Failed
		ranked = ranked && c.Ranked
		if c.format != nil {
			vs = append(vs, c.Value)
		}
	}
	if len(vs) < len(cells) {
		out := cells[0]
		for _, c := range cells {
			if c.Failed {
				out = c
				break
			}
		}
		out.Failed, out.Ranked = failed, false
		return out
	}
	s := Summarize(vs)
	f := cells[0].format
	text := f(s.Median)
	switch sp := s.Spread(); {
	case s.Min == s.Max:
		// Every run measured the same: nothing to add.
	case math.IsInf(sp, 1):
		text += " (" + f(s.Min) + "–" + f(s.Max) + ")"
	default:
		text += fmt.Sprintf(" ±%.0f%%", sp*100)
	}
	return Cell{Text: text, Value: s.Median, Ranked: ranked, Failed: failed, Stats: s, format: f}
}
