package report

import (
	"fmt"
	"strconv"
	"time"
)

// Duration rounds d to three significant digits, or to the nanosecond
// below 10µs and to 10ms from a second up: 1.277µs, 42.4µs, 351µs,
// 3.14ms, 12.12s, 36m8.29s.
func Duration(d time.Duration) string {
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

// Bytes formats n in binary units with three significant digits:
// 673 MiB, 2.70 GiB.
func Bytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return Sig3(v) + " " + units[i]
}

// Rate formats a count per second with SI suffixes: 812, 12.3k, 1.24M.
func Rate(v float64) string {
	if v < 999.5 {
		return fmt.Sprintf("%.0f", v)
	}
	for _, u := range []struct {
		size   float64
		suffix string
	}{{1e3, "k"}, {1e6, "M"}} {
		if x := v / u.size; x < 999.5 {
			return Sig3(x) + u.suffix
		}
	}
	return Sig3(v/1e9) + "G"
}

// Sig3 formats v with three significant digits, without exponent:
// 0.063, 1.95, 56.1, 286, 2537.
func Sig3(v float64) string {
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

// DurationCell is a ranked cell showing d.
func DurationCell(d time.Duration) Cell {
	return Cell{Text: Duration(d), Value: float64(d), Ranked: true}
}

// BytesCell is a ranked cell showing n bytes.
func BytesCell(n int64) Cell {
	return Cell{Text: Bytes(n), Value: float64(n), Ranked: true}
}

// RateCell is a ranked cell showing v per second.
func RateCell(v float64) Cell {
	return Cell{Text: Rate(v), Value: v, Ranked: true}
}

// Sig3Cell is a ranked cell showing v to three significant digits.
func Sig3Cell(v float64) Cell {
	return Cell{Text: Sig3(v), Value: v, Ranked: true}
}
