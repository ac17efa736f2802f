package report

import (
	"slices"
	"testing"
)

func TestBest(t *testing.T) {
	ranked := func(v float64) Cell { return Cell{Text: Sig3(v), Value: v, Ranked: true} }
	failed := ranked(0.5)
	failed.Failed = true
	for _, tc := range []struct {
		name string
		row  Row
		want []bool
	}{
		{"lowest", Row{Best: LowerBest, Cells: []Cell{ranked(2), ranked(1), ranked(3)}}, []bool{false, true, false}},
		{"highest", Row{Best: HigherBest, Cells: []Cell{ranked(2), ranked(1), ranked(3)}}, []bool{false, false, true}},
		{"ties all marked", Row{Best: LowerBest, Cells: []Cell{ranked(1), ranked(1), ranked(3)}}, []bool{true, true, false}},
		{"not judged", Row{Best: NoBest, Cells: []Cell{ranked(2), ranked(1)}}, []bool{false, false}},
		{"failed never best", Row{Best: LowerBest, Cells: []Cell{ranked(2), failed, ranked(3)}}, []bool{true, false, false}},
		{"unranked skipped", Row{Best: LowerBest, Cells: []Cell{ranked(2), None, {Text: "0"}, ranked(3)}}, []bool{true, false, false, false}},
		{"one figure is not a contest", Row{Best: LowerBest, Cells: []Cell{ranked(2), None, failed}}, []bool{false, false, false}},
	} {
		if got := tc.row.bests(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: best %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestJudge(t *testing.T) {
	c := Judge(DurationCell(5), "disk full", "")
	if !c.Failed || !c.Ranked {
		t.Errorf("a failed step's figure: %+v", c)
	}
	if c := Judge(None, "disk full", ""); c.Failed {
		t.Error("a step without a figure is marked failed")
	}
	if c := Judge(DurationCell(5), "", "query: disk full"); c.Failed || c.Ranked {
		t.Errorf("a passed step of a failed engine: %+v", c)
	}
}
