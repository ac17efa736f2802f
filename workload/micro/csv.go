package micro

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
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
	cw := csv.NewWriter(w)
	put := func(engine, bench, metric, value, unit string) {
		_ = cw.Write([]string{engine, bench, metric, value, unit}) // errors surface in cw.Error
	}
	put("engine", "benchmark", "metric", "value", "unit")
	e := r.Env
	for _, kv := range [][3]string{
		{"cpu_model", e.CPUModel, ""},
		{"cores", strconv.Itoa(e.Cores), "count"},
		{"memory", strconv.FormatInt(e.MemoryBytes, 10), "bytes"},
		{"kernel", e.Kernel, ""},
		{"os", e.OS, ""},
		{"arch", e.Arch, ""},
		{"go_version", e.GoVersion, ""},
		{"data_path", e.DataPath, ""},
		{"filesystem", e.Filesystem, ""},
		{"command_line", strings.Join(e.CommandLine, " "), ""},
		{"seed", strconv.FormatUint(e.Seed, 10), ""},
		{"sync", string(e.Sync), ""},
		{"start", e.Start.UTC().Format(time.RFC3339), ""},
	} {
		put("", "environment", kv[0], kv[1], kv[2])
	}
	for _, name := range slices.Sorted(maps.Keys(e.EngineVersions)) {
		put("", "environment", "version."+name, e.EngineVersions[name], "")
	}
	labels := rowLabels(r.config().Benchmarks)
	for _, res := range r.results() {
		opts, err := json.Marshal(res.Options)
		if err != nil {
			return err
		}
		c := res.Config
		for _, kv := range [][3]string{
			{"version", res.Version, ""},
			{"error", res.Error, ""},
			{"options", string(opts), "json"},
			{"benchmarks", strings.Join(c.Benchmarks, ","), ""},
			{"num", strconv.FormatInt(c.Num, 10), "entries"},
			{"key_type", string(c.KeyType), ""},
			{"order", string(c.Order), ""},
			{"value_size", strconv.Itoa(c.ValueSize), "bytes"},
			{"compression_ratio", strconv.FormatFloat(c.CompressionRatio, 'g', -1, 64), "ratio"},
			{"batch", strconv.Itoa(c.Batch), "entries"},
			{"seed", strconv.FormatUint(c.Seed, 10), ""},
		} {
			put(res.Engine, "run", kv[0], kv[1], kv[2])
		}
		for i := range res.Benchmarks {
			b := &res.Benchmarks[i]
			label := b.Name
			if i < len(labels) {
				label = labels[i]
			}
			for _, f := range benchFigures(b) {
				put(res.Engine, label, f[0], f[1], f[2])
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// benchFigures lists a benchmark's figures as metric, value, unit.
func benchFigures(b *Bench) [][3]string {
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	d := func(v time.Duration) string { return i(v.Nanoseconds()) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := [][3]string{
		{"name", b.Name, ""},
		{"ops", i(b.Ops), "ops"},
		{"key_size", strconv.Itoa(b.KeySize), "bytes"},
		{"value_size", strconv.Itoa(b.ValueSize), "bytes"},
	}
	if b.Setup != "" {
		out = append(out, [3]string{"setup", b.Setup, ""})
	}
	out = append(out,
		[3]string{"time", d(b.Time), "ns"},
		[3]string{"wall", d(b.Wall), "ns"},
		[3]string{"us_per_op", f(b.MicrosPerOp), "us"},
		[3]string{"ops_per_sec", f(b.OpsPerSec), "ops/s"},
		[3]string{"mb_per_sec", f(b.MBPerSec), "MB/s"},
		[3]string{"bytes", i(b.Bytes), "bytes"},
		[3]string{"cpu_user", d(b.CPUUser), "ns"},
		[3]string{"cpu_sys", d(b.CPUSys), "ns"})
	if b.IO != nil {
		out = append(out,
			[3]string{"io_read", i(b.IO.ReadBytes), "bytes"},
			[3]string{"io_write", i(b.IO.WriteBytes), "bytes"},
			[3]string{"io_cancelled_write", i(b.IO.CancelledWriteBytes), "bytes"})
	}
	out = append(out, [3]string{"peak_rss", i(b.PeakRSS), "bytes"})
	if l := b.Latency; l != nil {
		out = append(out,
			[3]string{"latency_of", b.LatencyOf, ""},
			[3]string{"latency_count", i(l.Count), "count"},
			[3]string{"latency_p50", d(l.P50), "ns"},
			[3]string{"latency_p99", d(l.P99), "ns"},
			[3]string{"latency_p999", d(l.P999), "ns"},
			[3]string{"latency_max", d(l.Max), "ns"})
	}
	if s := b.Storage; s != nil {
		out = append(out,
			[3]string{"entries", i(s.Entries), "entries"},
			[3]string{"flat", i(s.Flat), "bytes"},
			[3]string{"disk_actual", i(s.Disk.Actual), "bytes"},
			[3]string{"disk_apparent", i(s.Disk.Apparent), "bytes"},
			[3]string{"disk_files", strconv.Itoa(s.Disk.Files), "count"},
			[3]string{"reopened_actual", i(s.Reopened.Actual), "bytes"},
			[3]string{"reopened_apparent", i(s.Reopened.Apparent), "bytes"},
			[3]string{"reopened_files", strconv.Itoa(s.Reopened.Files), "count"},
			[3]string{"overhead", f(s.Overhead), "%"},
			[3]string{"bytes_per_entry", f(s.BytesPerEntry), "bytes"})
	}
	if v := b.Verify; v != nil {
		out = append(out,
			[3]string{"verify_expected", i(v.Expected), "entries"},
			[3]string{"verify_read", i(v.Read), "entries"},
			[3]string{"verify_missing", i(v.Missing), "entries"},
			[3]string{"verify_wrong", i(v.Wrong), "entries"})
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
