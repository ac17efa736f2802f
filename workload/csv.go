package workload

import (
	"io"
	"strconv"

	"github.com/tsbench/storage/internal/report"
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
	c := report.NewCSV(w, "step")
	c.Put("", "environment", r.Env.Metrics())
	for _, res := range r.results() {
		cfg := res.Config
		err := c.PutRun(report.Engine{Name: res.Engine, Error: res.Error}, res.Version, res.Options, [][3]string{
			{"points", report.Int(cfg.Points), "points"},
			{"series", report.Int(cfg.Series), "count"},
			{"batch", report.Int(cfg.Batch), "points"},
			{"seed", strconv.FormatUint(cfg.Seed, 10), ""},
			{"settle", strconv.FormatBool(cfg.Settle), ""},
		})
		if err != nil {
			return err
		}
		for i := range res.Steps {
			st := &res.Steps[i]
			c.Put(res.Engine, st.Name, stepFigures(st))
		}
	}
	return c.Flush()
}

// stepFigures lists a step's figures as metric, value, unit.
func stepFigures(s *Step) [][3]string {
	out := [][3]string{
		{"label", s.Label, ""},
		{"points", report.Int(s.Points), "points"},
		{"time", report.Nanos(s.Time), "ns"},
		{"wall", report.Nanos(s.Wall), "ns"},
		{"settle", report.Nanos(s.Settle), "ns"},
		{"settle_timed_out", strconv.FormatBool(s.SettleTimedOut), ""},
		{"points_per_sec", report.Float(s.PointsPerSec), "points/s"},
		{"us_per_point", report.Float(s.MicrosPerPoint), "us"},
		{"cpu_user", report.Nanos(s.CPUUser), "ns"},
		{"cpu_sys", report.Nanos(s.CPUSys), "ns"},
	}
	out = append(out, report.IOFigures(s.IO)...)
	out = append(out,
		[3]string{"logical", report.Int(s.LogicalBytes), "bytes"},
		[3]string{"write_amp", report.Float(s.WriteAmp), "ratio"},
		[3]string{"disk_actual", report.Int(s.Disk.Actual), "bytes"},
		[3]string{"disk_apparent", report.Int(s.Disk.Apparent), "bytes"},
		[3]string{"disk_files", strconv.Itoa(s.Disk.Files), "count"},
		[3]string{"peak_rss", report.Int(s.PeakRSS), "bytes"},
		[3]string{"open_fds", strconv.Itoa(s.OpenFDs), "count"})
	out = append(out, report.LatencyFigures(s.Latency)...)
	if v := s.Verify; v != nil {
		out = append(out,
			[3]string{"verify_expected", report.Int(v.Expected), "points"},
			[3]string{"verify_read", report.Int(v.Read), "points"},
			[3]string{"verify_missing", report.Int(v.Missing), "points"},
			[3]string{"verify_unexpected", report.Int(v.Unexpected), "points"},
			[3]string{"verify_wrong_values", report.Int(v.WrongValues), "points"})
		if v.First != "" {
			out = append(out, [3]string{"verify_first_problem", v.First, ""})
		}
	}
	if s.Error != "" {
		out = append(out, [3]string{"error", s.Error, ""})
	}
	return out
}
