package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	return Cell{Text: Duration(d), Value: float64(d), Ranked: true, format: FormatDuration}
}

// BytesCell is a ranked cell showing n bytes.
func BytesCell(n int64) Cell {
	return Cell{Text: Bytes(n), Value: float64(n), Ranked: true, format: FormatBytes}
}

// RateCell is a ranked cell showing v per second.
func RateCell(v float64) Cell {
	return Cell{Text: Rate(v), Value: v, Ranked: true, format: Rate}
}

// Sig3Cell is a ranked cell showing v to three significant digits.
func Sig3Cell(v float64) Cell {
	return Cell{Text: Sig3(v), Value: v, Ranked: true, format: Sig3}
}

// NumberCell is a cell showing v with format, ranked by v.
func NumberCell(v float64, format func(float64) string) Cell {
	return Cell{Text: format(v), Value: v, Ranked: true, format: format}
}

// FormatDuration is Duration of v nanoseconds.
func FormatDuration(v float64) string { return Duration(time.Duration(math.Round(v))) }

// FormatBytes is Bytes of v bytes.
func FormatBytes(v float64) string { return Bytes(int64(math.Round(v))) }

// FormatCount is v as a whole number with thousands separated: 1,234,567.
func FormatCount(v float64) string {
	s := strconv.FormatInt(int64(math.Round(math.Abs(v))), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if v <= -0.5 {
		s = "-" + s
	}
	return s
}

// UnitFormat is how figures of a unit read best: durations (ns), sizes
// (bytes), rates (per second) in their human forms, anything else with
// three significant digits.
func UnitFormat(unit string) func(float64) string {
	switch {
	case unit == "ns":
		return FormatDuration
	case unit == "bytes":
		return FormatBytes
	case strings.HasSuffix(unit, "/s"):
		return Rate
	case unit == "count":
		return FormatCount
	}
	return Sig3
}

// CountCell is a cell showing a count that is not judged (files, open
// descriptors), but still merges into a median over runs.
func CountCell(n int64) Cell {
	return Cell{Text: FormatCount(float64(n)), Value: float64(n), format: FormatCount}
}

// MetricCell is a cell showing v, the value of the engine metric name
// (engine.MetricNames): a size for a name ending in _bytes, a time for
// _ns, otherwise a count. It is not judged: engines count their own work
// each in their own way.
func MetricCell(name string, v int64) Cell {
	f := FormatCount
	switch unitOf(name) {
	case "bytes":
		f = FormatBytes
	case "ns":
		f = FormatDuration
	}
	return Cell{Text: f(float64(v)), Value: float64(v), format: f}
}
