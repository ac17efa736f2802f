package timeseries

import (
	"bufio"
	"fmt"
	"io"
	"runtime"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// GoBenchName is the name of a step's line in WriteGoBench's output: the
// engine and the step as key=value parts, the very name go test -bench
// gives the step in bench/ (BenchmarkTimeSeries/engine=pebble/op=write),
// so that benchstat pairs the two and can filter, group and compare by
// each (-col /engine). The workload's size is in configuration lines.
func GoBenchName(engine, step string) string {
	return fmt.Sprintf("BenchmarkTimeSeries/engine=%s/op=%s", engine, step)
}

// WriteGoBench writes the report in the Go benchmark format, one line per
// step of every run of every engine, which benchstat reads like the
// output of go test -bench -count N:
//
//	points: 200k
//	series: 1k
//	BenchmarkTimeSeries/engine=pebble/op=write  200000  982.4 ns/op  1017915 points/s ...
//
// The iteration count is the step's points (for compaction, the points
// that stay live). The figures are ns/op (engine time per point),
// points/s, cpu-ns (all threads), written-B and write-amp (when the OS
// counts I/O), disk-B (data bytes after the step), peak-rss-B, and for
// timed steps p50-ns, p99-ns, p99.9-ns and max-ns of a batch, series scan
// or DeleteRange. A failed step gets a "--- FAIL" line, which benchstat
// ignores. The points and series are configuration lines, which benchstat
// keeps apart: runs of other sizes are not compared.
func (r Report) WriteGoBench(w io.Writer) error {
	bw := bufio.NewWriter(w)
	goos, goarch := r.Env.OS, r.Env.Arch
	if goos == "" {
		goos, goarch = runtime.GOOS, runtime.GOARCH
	}
	g := report.NewGoBench(bw, goos, goarch, r.Env.CPUModel)
	cfg := r.config()
	fmt.Fprintf(bw, "points: %s\nseries: %s\n", harness.Count(cfg.Points), harness.Count(cfg.Series))
	for _, res := range r.set().All {
		if res.Error != "" && len(res.Steps) == 0 {
			g.Fail(fmt.Sprintf("BenchmarkTimeSeries/engine=%s", res.Engine), res.Error)
		}
		for i := range res.Steps {
			st := &res.Steps[i]
			name := GoBenchName(res.Engine, st.Name)
			if st.Error != "" {
				g.Fail(name, st.Error)
				continue
			}
			g.Line(name, max(st.Points, 1), st.metrics())
		}
	}
	return bw.Flush()
}

// metrics are the figures of a step in the units of Go benchmarks (see
// WriteGoBench).
func (s *Step) metrics() []report.Metric {
	m := []report.Metric{{Value: float64(s.Time.Nanoseconds()) / float64(max(s.Points, 1)), Unit: "ns/op"}}
	if s.PointsPerSec > 0 {
		m = append(m, report.Metric{Value: s.PointsPerSec, Unit: "points/s"})
	}
	m = append(m, report.Metric{Value: float64((s.CPUUser + s.CPUSys).Nanoseconds()), Unit: "cpu-ns"})
	if s.IO != nil {
		m = append(m, report.Metric{Value: float64(s.IO.WriteBytes), Unit: "written-B"})
	}
	if s.WriteAmp > 0 {
		m = append(m, report.Metric{Value: s.WriteAmp, Unit: "write-amp"})
	}
	m = append(m, report.Metric{Value: float64(s.Disk.Used), Unit: "disk-B"})
	if s.PeakRSS > 0 {
		m = append(m, report.Metric{Value: float64(s.PeakRSS), Unit: "peak-rss-B"})
	}
	if l := s.Latency; l != nil && l.Count > 0 {
		m = append(m,
			report.Metric{Value: float64(l.P50.Nanoseconds()), Unit: "p50-ns"},
			report.Metric{Value: float64(l.P99.Nanoseconds()), Unit: "p99-ns"},
			report.Metric{Value: float64(l.P999.Nanoseconds()), Unit: "p99.9-ns"},
			report.Metric{Value: float64(l.Max.Nanoseconds()), Unit: "max-ns"})
	}
	return m
}
