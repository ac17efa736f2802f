package micro

import (
	"io"
	"strconv"
	"strings"

	"github.com/tsbench/storage/internal/report"
)

// WriteCSV writes the report in long form, one row per figure, under the
// header engine,benchmark,metric,value,unit, so that any tool can pivot
// it:
//
//   - environment rows have an empty engine and benchmark "environment";
//   - per-engine rows have benchmark "run": version, error, options (as
//     JSON) and the config;
//   - per-benchmark rows have the benchmark's label (its name, numbered
//     from its second run on: readrandom#2) and one figure each, with
//     durations in ns and sizes in bytes.
//
// Figures a benchmark does not have (no storage for reads, no
// verification for writes) are left out rather than written as zero.
func (r Report) WriteCSV(w io.Writer) error {
	c := report.NewCSV(w, "benchmark")
	c.Put("", "environment", r.Env.Metrics())
	labels := rowLabels(r.config().Benchmarks)
	for _, res := range r.results() {
		cfg := res.Config
		err := c.PutRun(report.Engine{Name: res.Engine, Error: res.Error}, res.Version, res.Options, [][3]string{
			{"benchmarks", strings.Join(cfg.Benchmarks, ","), ""},
			{"num", report.Int(cfg.Num), "entries"},
			{"key_type", string(cfg.KeyType), ""},
			{"order", string(cfg.Order), ""},
			{"value_size", strconv.Itoa(cfg.ValueSize), "bytes"},
			{"compression_ratio", report.Float(cfg.CompressionRatio), "ratio"},
			{"batch", strconv.Itoa(cfg.Batch), "entries"},
			{"seed", strconv.FormatUint(cfg.Seed, 10), ""},
		})
		if err != nil {
			return err
		}
		for i := range res.Benchmarks {
			b := &res.Benchmarks[i]
			label := b.Name
			if i < len(labels) {
				label = labels[i]
			}
			c.Put(res.Engine, label, benchFigures(b))
		}
	}
	return c.Flush()
}

// benchFigures lists a benchmark's figures as metric, value, unit.
func benchFigures(b *Bench) [][3]string {
	out := [][3]string{
		{"name", b.Name, ""},
		{"ops", report.Int(b.Ops), "ops"},
		{"key_size", strconv.Itoa(b.KeySize), "bytes"},
		{"value_size", strconv.Itoa(b.ValueSize), "bytes"},
	}
	if b.Setup != "" {
		out = append(out, [3]string{"setup", b.Setup, ""})
	}
	out = append(out,
		[3]string{"time", report.Nanos(b.Time), "ns"},
		[3]string{"wall", report.Nanos(b.Wall), "ns"},
		[3]string{"us_per_op", report.Float(b.MicrosPerOp), "us"},
		[3]string{"ops_per_sec", report.Float(b.OpsPerSec), "ops/s"},
		[3]string{"mb_per_sec", report.Float(b.MBPerSec), "MB/s"},
		[3]string{"bytes", report.Int(b.Bytes), "bytes"},
		[3]string{"cpu_user", report.Nanos(b.CPUUser), "ns"},
		[3]string{"cpu_sys", report.Nanos(b.CPUSys), "ns"})
	out = append(out, report.IOFigures(b.IO)...)
	out = append(out, [3]string{"peak_rss", report.Int(b.PeakRSS), "bytes"})
	if b.Latency != nil {
		out = append(out, [3]string{"latency_of", b.LatencyOf, ""})
	}
	out = append(out, report.LatencyFigures(b.Latency)...)
	if s := b.Storage; s != nil {
		out = append(out,
			[3]string{"entries", report.Int(s.Entries), "entries"},
			[3]string{"flat", report.Int(s.Flat), "bytes"},
			[3]string{"disk_actual", report.Int(s.Disk.Actual), "bytes"},
			[3]string{"disk_apparent", report.Int(s.Disk.Apparent), "bytes"},
			[3]string{"disk_files", strconv.Itoa(s.Disk.Files), "count"},
			[3]string{"reopened_actual", report.Int(s.Reopened.Actual), "bytes"},
			[3]string{"reopened_apparent", report.Int(s.Reopened.Apparent), "bytes"},
			[3]string{"reopened_files", strconv.Itoa(s.Reopened.Files), "count"},
			[3]string{"overhead", report.Float(s.Overhead), "%"},
			[3]string{"bytes_per_entry", report.Float(s.BytesPerEntry), "bytes"})
	}
	if v := b.Verify; v != nil {
		out = append(out,
			[3]string{"verify_expected", report.Int(v.Expected), "entries"},
			[3]string{"verify_read", report.Int(v.Read), "entries"},
			[3]string{"verify_missing", report.Int(v.Missing), "entries"},
			[3]string{"verify_wrong", report.Int(v.Wrong), "entries"})
		if v.Checksum != "" {
			out = append(out, [3]string{"verify_checksum", v.Checksum, "hex"})
		}
		if v.First != "" {
			out = append(out, [3]string{"verify_first_problem", v.First, ""})
		}
	}
	if b.Error != "" {
		out = append(out, [3]string{"error", b.Error, ""})
	}
	return out
}
