package workload

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
// header engine,step,metric,value,unit, so that any tool can pivot it:
//
//   - environment rows have an empty engine and step "environment";
//   - per-engine rows have step "run": version, error, options (as JSON)
//     and the config;
//   - per-step rows have the step name (write, query, ...) and one metric
//     each, with durations in ns and sizes in bytes (see stepFigures).
//
// Figures a step does not have (no latency for compaction, no I/O when the
// OS does not report it) are left out rather than written as zero.
func (r Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	put := func(engine, step, metric, value, unit string) {
		_ = cw.Write([]string{engine, step, metric, value, unit}) // errors surface in cw.Error
	}
	put("engine", "step", "metric", "value", "unit")
	e := r.Env
	env := [][3]string{
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
	}
	for _, kv := range env {
		put("", "environment", kv[0], kv[1], kv[2])
	}
	for _, name := range slices.Sorted(maps.Keys(e.EngineVersions)) {
		put("", "environment", "version."+name, e.EngineVersions[name], "")
	}
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
			{"points", strconv.FormatInt(c.Points, 10), "points"},
			{"series", strconv.FormatInt(c.Series, 10), "count"},
			{"batch", strconv.FormatInt(c.Batch, 10), "points"},
			{"seed", strconv.FormatUint(c.Seed, 10), ""},
			{"settle", strconv.FormatBool(c.Settle), ""},
		} {
			put(res.Engine, "run", kv[0], kv[1], kv[2])
		}
		for i := range res.Steps {
			st := &res.Steps[i]
			for _, f := range stepFigures(st) {
				put(res.Engine, st.Name, f[0], f[1], f[2])
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// stepFigures lists a step's figures as metric, value, unit.
func stepFigures(s *Step) [][3]string {
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	d := func(v time.Duration) string { return i(v.Nanoseconds()) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := [][3]string{
		{"label", s.Label, ""},
		{"points", i(s.Points), "points"},
		{"time", d(s.Time), "ns"},
		{"wall", d(s.Wall), "ns"},
		{"settle", d(s.Settle), "ns"},
		{"settle_timed_out", strconv.FormatBool(s.SettleTimedOut), ""},
		{"points_per_sec", f(s.PointsPerSec), "points/s"},
		{"us_per_point", f(s.MicrosPerPoint), "us"},
		{"cpu_user", d(s.CPUUser), "ns"},
		{"cpu_sys", d(s.CPUSys), "ns"},
	}
	if s.IO != nil {
		out = append(out,
			[3]string{"io_read", i(s.IO.ReadBytes), "bytes"},
			[3]string{"io_write", i(s.IO.WriteBytes), "bytes"},
			[3]string{"io_cancelled_write", i(s.IO.CancelledWriteBytes), "bytes"})
	}
	out = append(out,
		[3]string{"logical", i(s.LogicalBytes), "bytes"},
		[3]string{"write_amp", f(s.WriteAmp), "ratio"},
		[3]string{"disk_actual", i(s.Disk.Actual), "bytes"},
		[3]string{"disk_apparent", i(s.Disk.Apparent), "bytes"},
		[3]string{"disk_files", i(int64(s.Disk.Files)), "count"},
		[3]string{"peak_rss", i(s.PeakRSS), "bytes"},
		[3]string{"open_fds", i(int64(s.OpenFDs)), "count"})
	if l := s.Latency; l != nil {
		out = append(out,
			[3]string{"latency_count", i(l.Count), "count"},
			[3]string{"latency_p50", d(l.P50), "ns"},
			[3]string{"latency_p99", d(l.P99), "ns"},
			[3]string{"latency_p999", d(l.P999), "ns"},
			[3]string{"latency_max", d(l.Max), "ns"})
	}
	if v := s.Verify; v != nil {
		out = append(out,
			[3]string{"verify_expected", i(v.Expected), "points"},
			[3]string{"verify_read", i(v.Read), "points"},
			[3]string{"verify_missing", i(v.Missing), "points"},
			[3]string{"verify_unexpected", i(v.Unexpected), "points"},
			[3]string{"verify_wrong_values", i(v.WrongValues), "points"})
		if v.First != "" {
			out = append(out, [3]string{"verify_first_problem", v.First, ""})
		}
	}
	if s.Error != "" {
		out = append(out, [3]string{"error", s.Error, ""})
	}
	return out
}
