package micro

import (
	"fmt"
	"strconv"
	"time"
)

// humanDuration rounds d to three significant digits, or to the
// nanosecond below 10µs and to 10ms from a second up: 1.277µs, 42.4µs,
// 351µs, 3.14ms, 12.12s, 1m8.29s.
func humanDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d < 10*time.Microsecond:
		return d.String()
	}
	unit := time.Duration(1)
	for d >= 1000*unit {
		unit *= 10
	}
	return d.Round(unit).String()
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
	for _, u := range []struct {
		size   float64
		suffix string
	}{{1, ""}, {1e3, "k"}, {1e6, "M"}} {
		if x := v / u.size; x < 999.5 {
			if u.size == 1 {
				return fmt.Sprintf("%.0f", x)
			}
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
