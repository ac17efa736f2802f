package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// GoBench writes reports in the Go benchmark format
// (golang.org/design/14313-benchmark-format), which benchstat reads like
// the output of go test -bench.
type GoBench struct {
	w io.Writer
}

// NewGoBench writes the configuration lines: only goos, goarch and cpu,
// because benchstat splits results whose configuration differs into
// separate tables.
func NewGoBench(w io.Writer, goos, goarch, cpu string) *GoBench {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\n", goos, goarch)
	if cpu != "" {
		fmt.Fprintf(w, "cpu: %s\n", cpu)
	}
	return &GoBench{w}
}

// Metric is one figure of a benchmark line: a value and its unit, such as
// ns/op or B.
type Metric struct {
	Value float64
	Unit  string
}

// Line writes one benchmark result: its name, the iterations (the
// operations timed) and its metrics.
func (g *GoBench) Line(name string, n int64, metrics []Metric) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\t%d", name, n)
	for _, m := range metrics {
		b.WriteString("\t" + GoBenchNumber(m.Value) + " " + m.Unit)
	}
	fmt.Fprintln(g.w, b.String())
}

// Fail writes a "--- FAIL" line, which benchstat skips.
func (g *GoBench) Fail(name, why string) { fmt.Fprintf(g.w, "--- FAIL: %s: %s\n", name, why) }

// GoBenchNumber formats v with six significant digits and no exponent
// for the magnitudes benchmarks produce.
func GoBenchNumber(v float64) string {
	if v >= 1e6 || v == float64(int64(v)) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
