package micro

import "math"

// Confidence is the level of the error the report gives beside a mean
// over iterations: JMH's, 99.9%.
const Confidence = 0.999

// MeanError is the half-width of the confidence interval, at level
// confidence, of the mean of xs: Student's t quantile at 1-(1-confidence)/2
// with n-1 degrees of freedom times the sample's standard deviation over
// sqrt(n), as JMH's AbstractStatistics.getMeanErrorAt computes the
// "Error" it prints. NaN, as there, for two values or fewer.
func MeanError(xs []float64, confidence float64) float64 {
	n := len(xs)
	if n <= 2 {
		return math.NaN()
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	return studentQuantile(1-(1-confidence)/2, float64(n-1)) * sd / math.Sqrt(float64(n))
}

// studentQuantile is the t with P(T <= t) = p for Student's t with df
// degrees of freedom, p in (0.5, 1): found by bisection on the CDF, which
// is monotonic, to the precision of a float64.
func studentQuantile(p, df float64) float64 {
	lo, hi := 0.0, 1.0
	for studentCDF(hi, df) < p {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if studentCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// studentCDF is P(T <= t) for t >= 0: 1 - I_x(df/2, 1/2)/2 with x =
// df/(df+t²), I the regularized incomplete beta function.
func studentCDF(t, df float64) float64 {
	return 1 - incompleteBeta(df/(df+t*t), df/2, 0.5)/2
}

// incompleteBeta is the regularized incomplete beta function I_x(a, b),
// by its continued fraction (Lentz's method), on the side of x where it
// converges fast.
func incompleteBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaFraction(1-x, b, a)/b
	}
	return front * betaFraction(x, a, b) / a
}

// betaFraction evaluates the continued fraction of I_x(a, b).
func betaFraction(x, a, b float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		for _, num := range []float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < 1e-16 {
			break
		}
	}
	return h
}
