package report

import (
	"slices"
	"strings"
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

// TestTablePruneAndBest checks that a row no engine has a figure for is
// left out, its group label moving to the next row, and that equal
// figures are not marked best.
func TestTablePruneAndBest(t *testing.T) {
	tab := Table{Head: []string{"Step", "Metric", "a", "b"}, Labels: 2, Rows: []Row{
		{Labels: []string{"Write", "points/s"}, Cells: []Cell{None, None}, Best: HigherBest},
		{Labels: []string{"", "wall"}, Cells: []Cell{DurationCell(2e9), DurationCell(1e9)}, Best: LowerBest},
		{Labels: []string{"", "read (OS)"}, Cells: []Cell{BytesCell(0), BytesCell(0)}, Best: LowerBest},
	}}
	var b strings.Builder
	tab.pruned().text(&b)
	got := b.String()
	for _, want := range []string{"Write  wall", "1s *", "0 B  "} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "points/s") || strings.Contains(got, "0 B *") {
		t.Errorf("an empty row, or equal figures marked best:\n%s", got)
	}
}
