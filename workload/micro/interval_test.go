package micro

import (
	"math"
	"testing"
)

// TestMeanError checks the error against Student's t tables (the
// two-sided 99.9% quantiles: 636.619 for 1 degree of freedom, 12.924 for
// 3, 5.041 for 8, 4.781 for 9, 3.707 for 26) and a sample worked by hand.
func TestMeanError(t *testing.T) {
	for _, c := range []struct {
		p, df, want float64
	}{
		{0.9995, 1, 636.619},
		{0.9995, 3, 12.924},
		{0.9995, 8, 5.041},
		{0.9995, 9, 4.781},
		{0.9995, 26, 3.707},
		{0.975, 10, 2.228},
	} {
		if got := studentQuantile(c.p, c.df); math.Abs(got-c.want) > 0.0006*c.want {
			t.Errorf("t quantile %g with %g degrees of freedom = %.4f, want %.3f", c.p, c.df, got, c.want)
		}
	}
	// Mean 2.5, standard deviation sqrt(5/3); 12.924 * 1.290994 / 2 = 8.3424.
	if got := MeanError([]float64{1, 2, 3, 4}, Confidence); math.Abs(got-8.3424) > 0.001 {
		t.Errorf("MeanError(1, 2, 3, 4) = %.4f, want 8.3424", got)
	}
	// Nine iterations (JMH's -f 3 -i 3), 8 degrees of freedom: standard
	// deviation sqrt(1.5/8); 5.0413 * 0.433013 / 3 = 0.72764.
	nine := []float64{10, 10.5, 9.5, 10, 10.5, 9.5, 10, 10.5, 9.5}
	if got, want := MeanError(nine, Confidence), 0.72764; math.Abs(got-want) > 0.0001 {
		t.Errorf("MeanError(nine) = %.4f, want %.4f", got, want)
	}
	if got := MeanError([]float64{1, 2}, Confidence); !math.IsNaN(got) {
		t.Errorf("MeanError of two values = %g, want NaN as JMH's", got)
	}
}
