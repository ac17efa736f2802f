package mixed

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// DefaultZipf is the zipfian exponent -skew zipfian stands for, YCSB's.
const DefaultZipf = 0.99

// ParseSkew reads -skew: "uniform" (0), "zipfian" (DefaultZipf), or a
// zipfian exponent in [0, 1) such as 0.8.
func ParseSkew(s string) (float64, error) {
	switch strings.TrimSpace(s) {
	case "uniform":
		return 0, nil
	case "zipfian", "zipf":
		return DefaultZipf, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v >= 1 {
		return 0, fmt.Errorf("%w: -skew %q; use uniform, zipfian, or an exponent from 0 to below 1 such as 0.99", ErrInvalidConfig, s)
	}
	return v, nil
}

// chooser picks series for queries: uniformly, or zipfian by the
// algorithm of Gray et al. ("Quickly generating billion-record synthetic
// databases", 1994) that YCSB uses, series 0 the most popular. It is
// read-only once made, so readers share one.
type chooser struct {
	n                   int64
	theta, alpha, eta   float64
	zetan, halfPowTheta float64
}

func newChooser(n int64, theta float64) *chooser {
	c := &chooser{n: n, theta: theta}
	if theta == 0 || n < 2 {
		return c
	}
	zeta := func(n int64) float64 {
		var z float64
		for i := int64(1); i <= n; i++ {
			z += 1 / math.Pow(float64(i), theta)
		}
		return z
	}
	c.zetan = zeta(n)
	c.alpha = 1 / (1 - theta)
	c.eta = (1 - math.Pow(2/float64(n), 1-theta)) / (1 - zeta(2)/c.zetan)
	c.halfPowTheta = 1 + math.Pow(0.5, theta)
	return c
}

// next draws a series with r.
func (c *chooser) next(r *rand.Rand) int64 {
	if c.zetan == 0 {
		return r.Int64N(c.n)
	}
	u := r.Float64()
	uz := u * c.zetan
	switch {
	case uz < 1:
		return 0
	case uz < c.halfPowTheta:
		return 1
	}
	return min(int64(float64(c.n)*math.Pow(c.eta*u-c.eta+1, c.alpha)), c.n-1)
}
