package timeseries

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/cgroup"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
)

// Report is the results of one or more engines on the same workload, with
// the machine they ran on. An engine run several times (-count) has one
// Result per run, told apart by Repeat; every format then shows the
// median of each figure and its spread.
// Its fields, RunID, Env and Results, are results.Report's.
type Report results.Report[Result]

// WriteJSON writes the report, every figure of every run and the
// environment, as indented JSON (schema: see the package documentation);
// when an engine ran more than once, "summary" holds the median and
// spread of each figure.
func (r Report) WriteJSON(w io.Writer) error {
	return r.set().WriteJSON(w, results.Report[Result](r), "steps", StepNames)
}

// Samples lists every number of every step of each engine over its runs,
// labelled as the tables label them, for comparing two reports.
func (r Report) Samples() []report.Samples {
	set, cfg := r.set(), r.config()
	return set.Samples(StepNames, func(step string) string { return Label(step, cfg) }, set.Figures)
}

// set gathers the results by engine.
func (r Report) set() *results.Set[Result] { return results.New(schema, r.Results) }

// schema tells the report plumbing how to read a Result: a step is a part
// of its own, named by its stable name.
var schema = results.Schema[Result]{
	Header: func(res *Result) *harness.Header { return &res.Header },
	Error:  func(res *Result) string { return res.Error },
	Ran:    func(res *Result) bool { return res.Config.Points > 0 },
	Run: func(res *Result) []report.Figure {
		return results.RunFigures(res.Header, res.Error, report.Flatten("config", res.Config), report.Flatten("dataset", res.Dataset))
	},
	Parts: func(res *Result) []results.Part {
		var out []results.Part
		for i := range res.Steps {
			out = append(out, results.Part{Name: res.Steps[i].Name, Figures: stepFigures(&res.Steps[i])})
		}
		return out
	},
}

// stepFigures are the figures of a step, named by their JSON paths.
func stepFigures(st *Step) []report.Figure {
	return slices.DeleteFunc(report.Flatten("", st), func(f report.Figure) bool { return f.Metric == "name" })
}

// config is the workload the report's engines ran.
func (r Report) config() Config {
	return results.Config(r.set(), func(res *Result) Config { return res.Config })
}

func (r Report) intro(set *results.Set[Result]) string {
	c := r.config()
	settle := "off"
	if c.Settle {
		settle = "on"
	}
	reuse := ""
	if c.ReuseIterator {
		// Not the 2014 way: say so where the sizes are.
		reuse = ", queries reuse one iterator (new bounds per series)"
	}
	reuse += c.Values.Note()
	if c.Cold {
		reuse += ", queries cold (the store's pages dropped from the page cache first)"
	}
	sizes := ""
	if c.Values.Import != nil {
		sizes = fmt.Sprintf(" (%s's, in place of -points and -series)", filepath.Base(c.Values.File))
	}
	s := fmt.Sprintf("%s points over %s series%s, batches of %d, seed %d, settle %s.\n"+
		"Times are engine calls only: generating, encoding and verifying data are excluded (see wall).\n"+
		"Best of each row marked *; ! marks a failed step (see Errors). Sizes in binary units.",
		harness.Count(c.Points), harness.Count(c.Series), sizes, c.Batch, c.Seed, settle+reuse)
	for _, res := range set.All {
		s += res.Dataset.Note(res.Engine, "write step not run")
	}
	return s + set.RepeatNote()
}

// stepOf finds a step in a run.
func stepOf(step string) results.Of[Result, Step] {
	return results.Of[Result, Step]{Get: func(res *Result) *Step { return res.Step(step) }, Error: func(st *Step) string { return st.Error }}
}

// peakPrivate is the highest private memory of a run's steps: what the
// engine needed, apart from the file pages it maps (peak RSS counts
// those too); report.None if no step sampled it.
func peakPrivate(res *Result) report.Cell {
	var peak int64
	for i := range res.Steps {
		if m := res.Steps[i].Memory; m != nil {
			peak = max(peak, m.Private)
		}
	}
	if peak == 0 {
		return report.None
	}
	return report.BytesCell(peak)
}

// Page lays the report out for every format (report.Write): the
// side-by-side table of the 2014 benchmark (steps as rows, engines as
// columns, the best of each row marked), a short form of it (the
// throughput of each step, what failed), the errors, the extra metrics
// and the environment; the HTML form charts each step's figures per
// engine.
func (r Report) Page() report.Page {
	set := r.set()
	engines := set.Engines()
	cfg := r.config()
	took := metric{Name: "time", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.DurationCell(s.Time) }}
	size := metric{Name: "DB size", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.BytesCell(s.Disk.Used) }}
	main := report.Table{Head: report.Head(engines, "Step"), Labels: 1}
	for _, x := range []struct {
		step string
		m    metric
		size bool
	}{
		{StepWrite, took, false}, {StepWrite, size, true}, {StepWrite, bytesPerPoint, true},
		{StepQuery, took, false}, {StepDelete, took, false},
		{StepCompact, took, false}, {StepCompact, size, true}, {StepCompact, bytesPerPoint, true},
		{StepQueryAfterDelete, took, false},
		{StepWriteMore, took, false}, {StepWriteMore, size, true}, {StepWriteMore, bytesPerPoint, true},
	} {
		label := Label(x.step, cfg)
		if x.size {
			label = x.m.Name
		}
		main.Rows = append(main.Rows, report.Row{Labels: []string{label}, Cells: results.MetricCells(set, stepOf(x.step), x.m), Best: x.m.Best})
	}
	main.Rows = append(main.Rows, set.Rows(results.Metric[Result]{Name: "Private memory, peak", Best: report.LowerBest, Get: peakPrivate})...)
	main.Rows = append(main.Rows, report.StatusRow(engines))

	grouped := func(title string, steps []string, metrics []metric) report.Table {
		t := report.Table{Title: title, Head: report.Head(engines, "Step", "Metric"), Labels: 2}
		for _, step := range steps {
			t.Rows = append(t.Rows, results.MetricRows(set, Label(step, cfg), stepOf(step), metrics)...)
		}
		return t
	}
	timedSteps := slices.DeleteFunc(slices.Clone(StepNames), func(s string) bool { return s == StepCompact })
	tables := []report.Table{
		main,
		grouped("Speed and CPU (points/s and µs/point from engine time; wall includes the harness; CPU of all threads"+r.processesNote()+" until settled)", StepNames, r.speedMetrics()),
		grouped("Storage (I/O counted by the OS"+r.processesNote()+" until settled; write amp = written / logical bytes; disk after the step)", StepNames, r.storageMetrics()),
		grouped("Memory and files (peaks during the step; private = anonymous memory, sampled 5 times a second; mapped files = "+
			"file pages mapped in, page cache the kernel can drop; RSS = the kernel's peak of both)", StepNames, r.memoryMetrics()),
		grouped("Latency (write: per batch; query: per series scan; delete: per series DeleteRange)", timedSteps, r.latencyMetrics()),
		grouped("Verification (every point read back and checked)", []string{StepQuery, StepQueryAfterDelete}, verifyMetrics),
	}
	if m := r.engineMetrics(); len(m) > 0 {
		tables = append(tables, grouped("Engine metrics (as each engine counts its own work, so not comparable across engines; "+
			"counters over the step until settled, the gauges (memtable, cache, table readers and free bytes) at its end; - where the engine reports none)", StepNames, m))
	}
	p := set.Page("Time-series workload", r.intro(set), append(r.Env.Lines(), r.descriptions()...), append(tables, set.Settings()), r.charts(set))
	p.Brief = []report.Table{main, grouped("Throughput (points/s of engine time)", timedSteps, r.speedMetrics()[:1])}
	return p
}

// engineMetrics are a row per engine metric some step of some engine
// reports, none if no engine reports any.
func (r Report) engineMetrics() []metric {
	var ms []engine.Metrics
	for _, res := range r.set().All {
		for _, st := range res.Steps {
			ms = append(ms, st.EngineMetrics)
		}
	}
	var out []metric
	for _, name := range engine.MetricNamesIn(ms...) {
		out = append(out, metric{Name: name, Best: report.NoBest, Get: func(s *Step) report.Cell {
			v, ok := s.EngineMetrics[name]
			if !ok {
				return report.None
			}
			return report.MetricCell(name, v)
		}})
	}
	return out
}

// metric is one figure of a step as the tables show it.
type metric = results.Metric[Step]

func (r Report) speedMetrics() []metric {
	speed := []metric{
		{Name: "points/s", Best: report.HigherBest, Get: func(s *Step) report.Cell {
			if s.PointsPerSec == 0 {
				return report.None
			}
			return report.RateCell(s.PointsPerSec)
		}},
		{Name: "µs/point", Best: report.LowerBest, Get: func(s *Step) report.Cell {
			if s.PointsPerSec == 0 {
				return report.None
			}
			return report.Sig3Cell(s.MicrosPerPoint)
		}},
		{Name: "wall", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.DurationCell(s.Wall) }},
	}
	settle := false
	for _, x := range r.set().All {
		settle = settle || x.Config.Settle
	}
	if settle {
		speed = append(speed, metric{Name: "settle", Best: report.LowerBest, Get: func(s *Step) report.Cell {
			c := report.DurationCell(s.Settle)
			if s.SettleTimedOut {
				c.Text = ">" + c.Text
			}
			return c
		}})
	}
	speed = append(speed, metric{Name: "CPU user+sys", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.DurationCell(s.CPUUser + s.CPUSys) }})
	if r.any(func(s *Step) bool { return s.Processes != nil }) {
		// The benchmark's own share, which an engine working in processes
		// of its own (a cluster's members) leaves apart: the client.
		speed = append(speed, metric{Name: "of it, this process", Best: report.LowerBest, Get: func(s *Step) report.Cell {
			if s.Processes == nil {
				return report.None
			}
			return report.DurationCell(s.CPUUser + s.CPUSys - s.Processes.CPUUser - s.Processes.CPUSys)
		}})
	}
	if r.any(func(s *Step) bool { return s.JVM != nil }) {
		speed = append(speed, metric{Name: "JVM GC time", Best: report.LowerBest, Get: func(s *Step) report.Cell {
			if s.JVM == nil {
				return report.None
			}
			return report.DurationCell(s.JVM.GCTime)
		}})
	}
	return speed
}

// descriptions are the environment lines of the engines that described
// the instance they ran on (Result.Description), once per engine and
// description.
func (r Report) descriptions() [][2]string {
	var lines [][2]string
	seen := map[[2]string]bool{}
	for _, res := range r.set().All {
		l := [2]string{"Engine " + res.Engine + " ran on", res.Description}
		if res.Description != "" && !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	return lines
}

// any reports whether a step of a result has what has asks about, so that
// rows only some engines fill are shown only when one does.
func (r Report) any(has func(*Step) bool) bool {
	for _, res := range r.set().All {
		for i := range res.Steps {
			if has(&res.Steps[i]) {
				return true
			}
		}
	}
	return false
}

// processesNote says, when an engine worked in processes of its own,
// that its CPU and I/O figures include theirs.
func (r Report) processesNote() string {
	if r.any(func(s *Step) bool { return s.Processes != nil }) {
		return ", the engine's processes included,"
	}
	return ""
}

// storageMetrics are storageMetrics, and the engine's own sizes if one
// reports them.
func (r Report) storageMetrics() []metric {
	if !r.any(func(s *Step) bool { return s.EngineSize != nil }) {
		return storageMetrics
	}
	size := func(get func(*EngineSize) int64) func(*Step) report.Cell {
		return func(s *Step) report.Cell {
			if s.EngineSize == nil {
				return report.None
			}
			return report.BytesCell(get(s.EngineSize))
		}
	}
	return append(slices.Clone(storageMetrics),
		metric{Name: "engine: in use", Best: report.LowerBest, Get: size(func(e *EngineSize) int64 { return e.InUse })},
		metric{Name: "engine: on disk", Best: report.LowerBest, Get: size(func(e *EngineSize) int64 { return e.OnDisk })})
}

// memoryMetrics are memoryMetrics, the engine's processes' memory if one
// works in processes of its own, and the memory cgroup's figures if the
// engines ran in one (-memory).
func (r Report) memoryMetrics() []metric {
	ms := memoryMetrics
	if r.any(func(s *Step) bool { return s.Processes != nil }) {
		ms = append(slices.Clone(ms), metric{Name: "engine processes' peak RSS (sum)", Best: report.LowerBest, Get: func(s *Step) report.Cell {
			if s.Processes == nil {
				return report.None
			}
			return report.PeakRSSCell(s.Processes.PeakRSS)
		}})
	}
	if r.any(func(s *Step) bool { return s.Cgroup != nil }) {
		cg := func(f func(u *cgroup.Usage) int64) func(s *Step) report.Cell {
			return func(s *Step) report.Cell {
				if s.Cgroup == nil {
					return report.None
				}
				return report.BytesCell(f(s.Cgroup))
			}
		}
		ms = append(slices.Clone(ms),
			metric{Name: "cgroup peak (with page cache)", Best: report.NoBest, Get: cg(func(u *cgroup.Usage) int64 { return u.Peak })},
			metric{Name: "cgroup page cache at end", Best: report.NoBest, Get: cg(func(u *cgroup.Usage) int64 { return u.Cache })},
			metric{Name: "cgroup anonymous at end", Best: report.LowerBest, Get: cg(func(u *cgroup.Usage) int64 { return u.Anon })})
	}
	return ms
}

var storageMetrics = []metric{
	{Name: "written (OS)", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.WrittenCell(s.IO) }},
	{Name: "read (OS)", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.ReadCell(s.IO) }},
	{Name: "write amp", Best: report.LowerBest, Get: func(s *Step) report.Cell {
		if s.WriteAmp == 0 {
			return report.None
		}
		return report.Sig3Cell(s.WriteAmp)
	}},
	{Name: "disk used", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.BytesCell(s.Disk.Used) }},
	bytesPerPoint,
	{Name: "× raw point", Best: report.LowerBest, Get: func(s *Step) report.Cell {
		if s.BytesPerPoint == 0 {
			return report.None
		}
		return report.Sig3Cell(s.BytesPerPoint / RawPoint)
	}},
	{Name: "disk actual", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.BytesCell(s.Disk.Actual) }},
	{Name: "disk apparent", Best: report.LowerBest, Get: func(s *Step) report.Cell { return report.BytesCell(s.Disk.Apparent) }},
	{Name: "files", Best: report.NoBest, Get: func(s *Step) report.Cell { return report.CountCell(int64(s.Disk.Files)) }},
}

// RawPoint is the bytes of a point as raw data, a timestamp and a
// float64: the yardstick of bytes per point.
const RawPoint = 16

// bytesPerPoint is a step's disk used over the points the store holds.
var bytesPerPoint = metric{Name: "bytes/point", Best: report.LowerBest, Get: func(s *Step) report.Cell { return results.BytesPerPointCell(s.BytesPerPoint) }}

var memoryMetrics = append(results.MemoryMetrics(func(s *Step) *measure.MemoryPeaks { return s.Memory }),
	metric{Name: "peak RSS (with files)", Best: report.NoBest, Get: func(s *Step) report.Cell { return report.PeakRSSCell(s.PeakRSS) }},
	metric{Name: "open fds", Best: report.NoBest, Get: func(s *Step) report.Cell {
		if s.OpenFDs == 0 {
			return report.Cell{Text: "n/a"}
		}
		return report.CountCell(int64(s.OpenFDs))
	}},
)

var latencyMetrics = results.LatencyMetrics(func(s *Step) *measure.Percentiles { return s.Latency })

// latencyMetrics are the latency rows: p50, p99, p99.9 and max, then
// each percentile -percentiles asked for.
func (r Report) latencyMetrics() []metric {
	return append(slices.Clone(latencyMetrics), results.PercentileMetrics(r.config().Percentiles, func(s *Step) map[string]time.Duration { return s.Percentiles })...)
}

var verifyMetrics = []metric{{Name: "checked", Best: report.NoBest, Get: func(s *Step) report.Cell {
	return results.VerifyCell(s.Verify, "points")
}}}

// CompareMetrics are the figures benchmark-storage compare shows by
// default: what a change to an engine or its settings usually moves.
var CompareMetrics = []report.CompareMetric{
	{Metric: "time_ns", Title: "Time"},
	{Metric: "cpu_user_ns", Title: "CPU user time"},
	{Metric: "io.write_bytes", Title: "Bytes written (OS)"},
	{Metric: "disk.used_bytes", Title: "DB size"},
	{Metric: "bytes_per_point", Title: "Bytes per point"},
	{Metric: "latency.p99_ns", Title: "p99 latency"},
	{Metric: "memory.peak_private_bytes", Title: "Private memory (peak)"},
	{Metric: "memory.peak_file_bytes", Title: "Mapped files (peak)"},
	{Metric: "peak_rss_bytes", Title: "Peak RSS (with mapped files)"},
}
