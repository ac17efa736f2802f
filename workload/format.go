package workload

import (
	"fmt"
	"strconv"
	"time"
)

// Count formats a number of points as the report's labels do: 100M, 1.5M,
// 10k, 1G; with at most two decimals, else in full (1234567).
func Count(n int64) string {
	for _, u := range []struct {
		size   int64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if n >= u.size && n%(u.size/100) == 0 {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', -1, 64) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// humanDuration rounds d to three or four significant digits, as the 2014
// table did: 36m8.29s, 12.12s, 3.14ms, 351µs, 42.4µs, 1.548µs.
func humanDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		d = d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		d = d.Round(10 * time.Microsecond)
	case d >= 100*time.Microsecond:
		d = d.Round(time.Microsecond)
	case d >= 10*time.Microsecond:
		d = d.Round(100 * time.Nanosecond)
	}
	return d.String()
}

// humanBytes formats n in binary units with three significant digits:
// 673 MiB, 2.70 GiB.
func humanBytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return sig3(v) + " " + units[i]
}

// humanRate formats a count per second with SI suffixes: 812, 12.3k, 1.24M.
func humanRate(v float64) string {
	if v < 999.5 {
		return fmt.Sprintf("%.0f", v)
	}
	units := []struct {
		size   float64
		suffix string
	}{{1e3, "k"}, {1e6, "M"}, {1e9, "G"}}
	for _, u := range units[:len(units)-1] {
		if x := v / u.size; x < 999.5 {
			return sig3(x) + u.suffix
		}
	}
	return sig3(v/1e9) + "G"
}

// sig3 formats v with three significant digits, without exponent.
func sig3(v float64) string {
	switch {
	case v >= 99.95:
		return fmt.Sprintf("%.0f", v)
	case v >= 9.995:
		return fmt.Sprintf("%.1f", v)
	case v >= 0.9995:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}
