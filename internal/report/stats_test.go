package report

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		in     []float64
		want   Stats
		spread float64
	}{
		{nil, Stats{}, 0},
		{[]float64{5}, Stats{1, 5, 5, 5}, 0},
		{[]float64{3, 1, 2}, Stats{3, 2, 1, 3}, 0.5},
		{[]float64{4, 1, 2, 3}, Stats{4, 2.5, 1, 4}, 0.6},
		{[]float64{0, 0, 1}, Stats{3, 0, 0, 1}, math.Inf(1)},
	} {
		got := Summarize(c.in)
		if got != c.want || got.Spread() != c.spread {
			t.Errorf("Summarize(%v) = %+v spread %v, want %+v spread %v", c.in, got, got.Spread(), c.want, c.spread)
		}
	}
}

// TestUTest checks p-values that can be counted by hand: the share of the
// ways to split the pooled ranks whose sum is as far from the mean.
func TestUTest(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		p    float64
	}{
		// Three runs a side can never reach 0.05: the best is 2/20.
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 0.1},
		{[]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 2.0 / 70},
		{[]float64{1, 3, 5, 7}, []float64{2, 4, 6, 8}, 0.6857142857142857},
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 1},
		// Ties: ranks 1.5, 1.5 and 3..6; only the two extreme splits are
		// as far from the mean as the observed one.
		{[]float64{1, 1, 2}, []float64{3, 4, 5}, 0.1},
		{[]float64{5}, nil, 1},
	} {
		if got := UTest(c.x, c.y); math.Abs(got-c.p) > 1e-9 {
			t.Errorf("UTest(%v, %v) = %v, want %v", c.x, c.y, got, c.p)
		}
	}
	// Large samples take the normal approximation: clearly apart, and
	// the same distribution.
	var a, b []float64
	for i := range 40 {
		a = append(a, float64(i))
		b = append(b, float64(i)+30)
	}
	if p := UTest(a, b); p > 1e-6 {
		t.Errorf("disjoint large samples: p = %v", p)
	}
	if p := UTest(a, a); p < 0.9 {
		t.Errorf("identical large samples: p = %v", p)
	}
}
