package micro

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/tsbench/storage/internal/report"
)

// GoBenchName is the name of a benchmark's line in WriteGoBench's output:
// the engine, the benchmark (label), the key type and the value size as
// key=value parts, as sub-benchmarks of go test are named, so that
// benchstat can filter, group and compare by each (-col /engine).
func GoBenchName(engine, label string, key KeyType, valueSize int) string {
	return fmt.Sprintf("BenchmarkMicro/engine=%s/op=%s/key=%s/value=%d", engine, label, key, valueSize)
}

// WriteGoBench writes the report in the Go benchmark format
// (golang.org/design/14313-benchmark-format), one line per benchmark and
// engine, which benchstat reads like the output of go test -bench:
//
//	BenchmarkMicro/engine=rocksdb/op=fillseq/key=str16/value=100  1000000  2.345 ns/op  42.6 MB/s ...
//
// The iteration count is the benchmark's operations. The figures are
// ns/op (engine time), MB/s and ops/s; p50-ns, p99-ns, p99.9-ns and
// max-ns, per operation (/op), batch (/batch) or scan chunk (/chunk);
// cpu-ns/op (all threads); and after writes written-B/op (bytes the OS
// wrote), disk-B, actual-B and apparent-B (the closed store's used,
// actual and apparent bytes, see Storage), reopened-B (its used bytes once
// reopened), disk-B/entry and overhead-% (over a flat array of the keys
// and values). Only goos,
// goarch and cpu are written as configuration lines, because benchstat
// splits results whose configuration differs into separate tables.
// Failed benchmarks and those that timed nothing get a "--- FAIL" or
// "--- SKIP" line, which benchstat ignores.
func (r Report) WriteGoBench(w io.Writer) error {
	bw := bufio.NewWriter(w)
	goos, goarch := r.Env.OS, r.Env.Arch
	if goos == "" {
		goos, goarch = runtime.GOOS, runtime.GOARCH
	}
	fmt.Fprintf(bw, "goos: %s\ngoarch: %s\n", goos, goarch)
	if r.Env.CPUModel != "" {
		fmt.Fprintf(bw, "cpu: %s\n", r.Env.CPUModel)
	}
	labels := rowLabels(r.config().Benchmarks)
	for _, res := range r.set().All {
		if res.Error != "" && len(res.Benchmarks) == 0 {
			fmt.Fprintf(bw, "--- FAIL: BenchmarkMicro/engine=%s: %s\n", res.Engine, res.Error)
		}
		for i := range res.Benchmarks {
			b := &res.Benchmarks[i]
			label := b.Name
			if i < len(labels) {
				label = labels[i]
			}
			name := GoBenchName(res.Engine, label, res.Config.KeyType, b.ValueSize)
			switch {
			case b.Error != "":
				fmt.Fprintf(bw, "--- FAIL: %s: %s\n", name, b.Error)
			case b.Ops == 0 || b.Time == 0:
				fmt.Fprintf(bw, "--- SKIP: %s: no operations timed\n", name)
			default:
				fmt.Fprintf(bw, "%s\t%d%s\n", name, b.Ops, goBenchMetrics(b))
			}
		}
	}
	return bw.Flush()
}

// Metric is one figure of a Bench in the units of Go benchmarks.
type Metric struct {
	Value float64
	Unit  string
}

// Metrics lists the figures of a benchmark that timed at least one
// operation, as WriteGoBench writes them and as a testing.B reports them
// with ReportMetric (see WriteGoBench for the units).
func (b *Bench) Metrics() []Metric {
	ops := float64(b.Ops)
	m := []Metric{
		{float64(b.Time.Nanoseconds()) / ops, "ns/op"},
		{b.MBPerSec, "MB/s"},
		{b.OpsPerSec, "ops/s"},
	}
	if l := b.Latency; l != nil && l.Count > 0 {
		per := "/" + b.LatencyOf
		m = append(m,
			Metric{float64(l.P50.Nanoseconds()), "p50-ns" + per},
			Metric{float64(l.P99.Nanoseconds()), "p99-ns" + per},
			Metric{float64(l.P999.Nanoseconds()), "p99.9-ns" + per},
			Metric{float64(l.Max.Nanoseconds()), "max-ns" + per})
	}
	m = append(m, Metric{float64((b.CPUUser + b.CPUSys).Nanoseconds()) / ops, "cpu-ns/op"})
	if st := b.Storage; st != nil {
		if b.IO != nil {
			m = append(m, Metric{float64(b.IO.WriteBytes) / ops, "written-B/op"})
		}
		m = append(m, Metric{float64(st.Disk.Used), "disk-B"}, Metric{float64(st.Disk.Actual), "actual-B"},
			Metric{float64(st.Disk.Apparent), "apparent-B"}, Metric{float64(st.Reopened.Used), "reopened-B"})
		if st.Entries > 0 {
			m = append(m, Metric{st.BytesPerEntry, "disk-B/entry"}, Metric{st.Overhead, "overhead-%"})
		}
	}
	return m
}

// goBenchMetrics formats a benchmark's figures as "\tvalue unit" pairs.
func goBenchMetrics(b *Bench) string {
	var s strings.Builder
	for _, m := range b.Metrics() {
		s.WriteString("\t" + report.GoBenchNumber(m.Value) + " " + m.Unit)
	}
	return s.String()
}
