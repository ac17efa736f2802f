package report

import (
	"math"
	"slices"
)

// Stats summarizes one figure over repeated runs: its median and its
// spread, the smallest and largest value. The median rather than the mean,
// because a run disturbed by the machine (a neighbour's I/O, a page-cache
// flush) is an outlier, not information.
type Stats struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Summarize computes the Stats of vs; N is 0 for none.
func Summarize(vs []float64) Stats {
	if len(vs) == 0 {
		return Stats{}
	}
	s := slices.Sorted(slices.Values(vs))
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Stats{N: n, Median: med, Min: s[0], Max: s[n-1]}
}

// Spread is the larger distance from the median to the min or the max,
// as a fraction of the median: 0.08 for ±8%. It is 0 for fewer than two
// runs, and +Inf when the median is 0 but the values are not all 0.
func (s Stats) Spread() float64 {
	d := max(s.Max-s.Median, s.Median-s.Min)
	switch {
	case s.N < 2 || d == 0:
		return 0
	case s.Median == 0:
		return math.Inf(1)
	}
	return d / math.Abs(s.Median)
}

// UTest is the two-sided Mann-Whitney U test that benchstat uses: the
// probability that samples as different as x and y come from the same
// distribution. It needs no assumption about the shape of the
// distribution, which for benchmark timings is skewed. The p-value is
// exact (ties included) up to 50 values in all, and from the normal
// approximation with a tie correction beyond. Note that with three runs a
// side the smallest p possible is 0.1: at least four a side are needed to
// see a difference at the usual level of 0.05.
func UTest(x, y []float64) float64 {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	// Midranks of the pooled samples, doubled to stay whole.
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	slices.SortFunc(all, func(a, b obs) int { return cmpFloat(a.v, b.v) })
	ranks2 := make([]int, len(all)) // 2 x midrank
	tieTerm := 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		for k := i; k < j; k++ {
			ranks2[k] = i + 1 + j // (i+1 + j) / 2, doubled
		}
		t := float64(j - i)
		tieTerm += t*t*t - t
		i = j
	}
	r1 := 0 // doubled rank sum of x
	for k, o := range all {
		if o.first {
			r1 += ranks2[k]
		}
	}
	n := n1 + n2
	mean2 := n1 * (n + 1) // doubled expected rank sum
	dev := abs(r1 - mean2)
	if n <= 50 {
		// P(|R - mean| >= dev) over every way of choosing n1 of the ranks.
		return exactTail(ranks2, n1, mean2, dev)
	}
	u := float64(r1-mean2) / 2
	nf := float64(n)
	sigma := math.Sqrt(float64(n1*n2) / 12 * ((nf + 1) - tieTerm/(nf*(nf-1))))
	if sigma == 0 {
		return 1
	}
	z := (math.Abs(u) - 0.5) / sigma
	return min(1, math.Erfc(max(z, 0)/math.Sqrt2))
}

// exactTail is the probability that choosing k of ranks at random gives a
// sum at least dev away from mean, by counting sums with dynamic
// programming.
func exactTail(ranks []int, k, mean, dev int) float64 {
	total := 0
	for _, r := range ranks {
		total += r
	}
	// ways[j][s]: subsets of j ranks so far summing to s, as float64 to
	// hold binomial counts.
	ways := make([][]float64, k+1)
	for j := range ways {
		ways[j] = make([]float64, total+1)
	}
	ways[0][0] = 1
	for _, r := range ranks {
		for j := k; j >= 1; j-- {
			for s := total; s >= r; s-- {
				ways[j][s] += ways[j-1][s-r]
			}
		}
	}
	var tail, all float64
	for s, w := range ways[k] {
		all += w
		if abs(s-mean) >= dev {
			tail += w
		}
	}
	return tail / all
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
