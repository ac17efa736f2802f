package report

import (
	"slices"
	"strings"
	"testing"
)

// TestCompareVersions orders releases as numbers, not text.
func TestCompareVersions(t *testing.T) {
	want := []string{"0.9.9", "0.9.33", "0.9.35", "1.0", "1.0.1", "9.10.0", "10.0.1", "10.2.1", "11.8.1", "v2.0.0", "v2.1.7", "v10.0.0"}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, CompareVersions)
	if !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
	if CompareVersions("10.0.01", "10.0.1") != 0 {
		t.Error("10.0.01 and 10.0.1 differ")
	}
}

// TestHistoryMinEffect: the U test finds every step of these runs, which
// have no spread, but a change is marked only when it is at least the
// minimum effect and shows in the figures' three digits: 26.30 → 26.31
// (+0.04%, "26.3" both) never, even with no minimum, 26.31 → 26.5
// (+0.7%) only below a 1% minimum, 26.5 → 29.0 (+9.4%) always.
func TestHistoryMinEffect(t *testing.T) {
	var rs []Release
	for _, r := range []struct {
		version string
		v       float64
	}{{"1.0", 26.30}, {"2.0", 26.31}, {"3.0", 26.5}, {"4.0", 29.0}} {
		rs = append(rs, Release{Engine: "e", Version: r.version, Samples: []Samples{
			{Engine: "e", Part: "compact", Label: "Compaction", Metric: "bytes_per_point", Values: []float64{r.v, r.v, r.v, r.v}}}})
	}
	metrics := []CompareMetric{{Metric: "bytes_per_point", Title: "Bytes per point"}}
	for _, c := range []struct {
		minEffect float64
		want      []string
	}{
		{1, []string{"+0.0%", "+0.7%", "+9.4% *"}},
		{0, []string{"+0.0%", "+0.7% *", "+9.4% *"}},
	} {
		p := History(rs, metrics, 0.05, c.minEffect)
		row := p.Tables[0].Rows[1] // the change row
		var got []string
		for _, cell := range row.Cells[1:] {
			got = append(got, cell.Text)
		}
		marks := 0
		for _, pt := range p.Charts[0].Series[0].Points {
			if pt.Mark {
				marks++
			}
		}
		if !slices.Equal(got, c.want) || marks != strings.Count(strings.Join(got, " "), "*") {
			t.Errorf("min effect %g%%: changes %q with %d rings, want %q", c.minEffect, got, marks, c.want)
		}
	}
}
