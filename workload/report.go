package workload

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/cgroup"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// Report is the results of one or more engines on the same workload, with
// the machine they ran on. An engine run several times (-count) has one
// Result per run, told apart by Repeat; every format then shows the
// median of each figure and its spread.
type Report struct {
	// RunID identifies the run that made the report, so that results of
	// several runs can be stacked (CSV) and told apart.
	RunID   string              `json:"run_id,omitempty"`
	Env     harness.Environment `json:"environment"`
	Results []*Result           `json:"results"`
}

// String renders the report for a terminal: the side-by-side table of the
// 2014 benchmark (steps as rows, engines as columns, the best of each row
// marked '*'), the errors, the extra metrics, and the environment. Tables
// wider than report.TextWidth are split by engines.
func (r Report) String() string { return r.page().Text() }

// Brief renders the report in short for a terminal: the main table, the
// throughput of each step, what failed, and the environment in brief.
func (r Report) Brief() string { return r.page().BriefText() }

// Markdown renders the same report as GitHub-flavored Markdown, the best
// of each row in bold.
func (r Report) Markdown() string { return r.page().Markdown() }

// HTML renders the report as one self-contained page: charts of each
// step's figures per engine, the tables of String, and the environment.
func (r Report) HTML() string { return r.page().HTML() }

// Summary is an engine's figures over its runs.
type Summary struct {
	Engine string `json:"engine"`
	// Runs is how many times the engine ran.
	Runs int `json:"runs"`
	// Steps summarizes every number of each step (see Step), named by its
	// JSON path: {name, figures: [{metric, unit, n, median, min, max}]}.
	Steps []report.PartStats `json:"steps"`
}

// WriteJSON writes the report, every figure of every run and the
// environment, as indented JSON (schema: see the package documentation);
// when an engine ran more than once, "summary" holds the median and
// spread of each figure.
func (r Report) WriteJSON(w io.Writer) error {
	out := struct {
		Report
		Summary []Summary `json:"summary,omitempty"`
	}{Report: r}
	if r.repeated() {
		for _, g := range r.groups() {
			s := Summary{Engine: g.engine, Runs: len(g.runs)}
			for _, name := range StepNames {
				if runs := g.figures(name); len(runs) > 0 {
					s.Steps = append(s.Steps, report.SummarizeRuns(name, runs))
				}
			}
			out.Summary = append(out.Summary, s)
		}
	}
	return report.WriteJSON(w, out)
}

// Samples lists every number of every step of each engine over its runs,
// labelled as the tables label them, for comparing two reports.
func (r Report) Samples() []report.Samples {
	cfg := r.config()
	var out []report.Samples
	for _, g := range r.groups() {
		for _, name := range StepNames {
			out = append(out, report.SamplesOf(g.engine, name, Label(name, cfg), g.figures(name))...)
		}
	}
	return out
}

// figures are the figures of step name in each of the engine's runs
// that has it.
func (g group) figures(name string) [][]report.Figure {
	var runs [][]report.Figure
	for _, res := range g.runs {
		if st := res.Step(name); st != nil {
			runs = append(runs, stepFigures(st))
		}
	}
	return runs
}

// stepFigures are the figures of a step, named by their JSON paths.
func stepFigures(st *Step) []report.Figure {
	return slices.DeleteFunc(report.Flatten("", st), func(f report.Figure) bool { return f.Metric == "name" })
}

// config is the workload the report's engines ran: the config of the
// first result that has one (an engine whose process crashed has none).
func (r Report) config() Config {
	for _, res := range r.results() {
		if res.Config.Points > 0 {
			return res.Config
		}
	}
	return Config{}
}

func (r Report) intro() string {
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
	s := fmt.Sprintf("%s points over %s series, batches of %d, seed %d, settle %s.\n"+
		"Times are engine calls only: generating, encoding and verifying data are excluded (see wall).\n"+
		"Best of each row marked *; ! marks a failed step (see Errors). Sizes in binary units.",
		harness.Count(c.Points), harness.Count(c.Series), c.Batch, c.Seed, settle+reuse)
	for _, res := range r.results() {
		if d := res.Dataset; d != nil && d.Reused {
			s += fmt.Sprintf("\n%s: write step not run: reused the dataset %s (written %s), cloned by %s in %s.",
				res.Engine, d.Path, d.Created.UTC().Format("2006-01-02 15:04"), d.Method, report.Duration(d.Clone))
		}
	}
	return s + report.RepeatNote(r.maxRuns())
}

// results returns the non-nil results, so that a caller's gap cannot
// crash the rendering.
func (r Report) results() []*Result {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res *Result) bool { return res == nil })
}

// group is the runs of one engine, in the order they ran.
type group struct {
	engine string
	runs   []*Result
}

// groups gathers the results by engine, in the order engines first
// appear.
func (r Report) groups() []group {
	var out []group
	for _, runs := range report.Groups(r.Results, func(res *Result) string { return res.Engine }) {
		out = append(out, group{runs[0].Engine, runs})
	}
	return out
}

// maxRuns is the most runs any engine had.
func (r Report) maxRuns() int {
	n := 0
	for _, g := range r.groups() {
		n = max(n, len(g.runs))
	}
	return n
}

// repeated reports whether an engine ran more than once.
func (r Report) repeated() bool { return r.maxRuns() > 1 }

// err is why the engine's runs failed, "" if none did: the error of its
// one run, or each failed run's, numbered.
func (g group) err() string {
	var errs []string
	for _, res := range g.runs {
		errs = append(errs, res.Error)
	}
	return report.RunsError(errs)
}

// engines are the report's columns.
func (r Report) engines() []report.Engine {
	var out []report.Engine
	for _, g := range r.groups() {
		out = append(out, report.Engine{Name: g.engine, Error: g.err()})
	}
	return out
}

// cells are the figure m of step for each engine: the median of its runs
// when it ran more than once.
func (r Report) cells(step string, m metric) []report.Cell {
	var out []report.Cell
	for _, g := range r.groups() {
		var cs []report.Cell
		for _, res := range g.runs {
			if st := res.Step(step); st != nil {
				cs = append(cs, report.Judge(m.get(st), st.Error, res.Error))
			}
		}
		c := report.Merge(cs)
		if len(cs) < len(g.runs) && len(cs) > 0 {
			c.Failed = true // a run stopped before this step
		}
		c.Ranked = c.Ranked && g.err() == ""
		out = append(out, c)
	}
	return out
}

// page lays the report out: the main table, then the extra ones.
func (r Report) page() report.Page {
	engines := r.engines()
	cfg := r.config()
	took := metric{"time", report.LowerBest, func(s *Step) report.Cell { return report.DurationCell(s.Time) }}
	size := metric{"DB size", report.LowerBest, func(s *Step) report.Cell { return report.BytesCell(s.Disk.Used) }}
	main := report.Table{Head: report.Head(engines, "Step"), Labels: 1}
	for _, x := range []struct {
		step string
		m    metric
		size bool
	}{
		{StepWrite, took, false}, {StepWrite, size, true},
		{StepQuery, took, false}, {StepDelete, took, false},
		{StepCompact, took, false}, {StepCompact, size, true},
		{StepQueryAfterDelete, took, false},
		{StepWriteMore, took, false}, {StepWriteMore, size, true},
	} {
		label := Label(x.step, cfg)
		if x.size {
			label = "DB size"
		}
		main.Rows = append(main.Rows, report.Row{Labels: []string{label}, Cells: r.cells(x.step, x.m), Best: x.m.best})
	}
	main.Rows = append(main.Rows, report.StatusRow(engines))

	grouped := func(title string, steps []string, metrics []metric) report.Table {
		t := report.Table{Title: title, Head: report.Head(engines, "Step", "Metric"), Labels: 2}
		for _, step := range steps {
			for i, m := range metrics {
				label := ""
				if i == 0 {
					label = Label(step, cfg)
				}
				t.Rows = append(t.Rows, report.Row{Labels: []string{label, m.name}, Cells: r.cells(step, m), Best: m.best})
			}
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
		grouped("Latency (write: per batch; query: per series scan; delete: per series DeleteRange)", timedSteps, latencyMetrics()),
		grouped("Verification (every point read back and checked)", []string{StepQuery, StepQueryAfterDelete}, verifyMetrics),
	}
	if m := r.engineMetrics(); len(m) > 0 {
		tables = append(tables, grouped("Engine metrics (as each engine counts its own work, so not comparable across engines; "+
			"counters over the step until settled, the gauges (memtable, cache and table readers bytes) at its end; - where the engine reports none)", StepNames, m))
	}
	var opts []map[string]any
	for _, g := range r.groups() {
		opts = append(opts, g.runs[0].Options)
	}
	tables = append(tables, report.SettingsTable(names(engines), opts))
	return report.Page{
		Title: "Time-series workload: " + strings.Join(names(engines), ", "),
		Intro: r.intro(), Engines: engines, Environment: append(r.Env.Lines(), r.descriptions()...), Charts: r.charts(),
		Tables: tables,
		Brief:  []report.Table{main, grouped("Throughput (points/s of engine time)", timedSteps, r.speedMetrics()[:1])},
	}
}

// engineMetrics are a row per engine metric some step of some engine
// reports, none if no engine reports any.
func (r Report) engineMetrics() []metric {
	var ms []engine.Metrics
	for _, res := range r.results() {
		for _, st := range res.Steps {
			ms = append(ms, st.EngineMetrics)
		}
	}
	var out []metric
	for _, name := range engine.MetricNamesIn(ms...) {
		out = append(out, metric{name, report.NoBest, func(s *Step) report.Cell {
			v, ok := s.EngineMetrics[name]
			if !ok {
				return report.None
			}
			return report.MetricCell(name, v)
		}})
	}
	return out
}

// names are the engines' names.
func names(engines []report.Engine) []string {
	var out []string
	for _, e := range engines {
		out = append(out, e.Name)
	}
	return out
}

// metric is one figure of a step as the tables show it.
type metric struct {
	name string
	best report.Better
	get  func(*Step) report.Cell
}

func (r Report) speedMetrics() []metric {
	speed := []metric{
		{"points/s", report.HigherBest, func(s *Step) report.Cell {
			if s.PointsPerSec == 0 {
				return report.None
			}
			return report.RateCell(s.PointsPerSec)
		}},
		{"µs/point", report.LowerBest, func(s *Step) report.Cell {
			if s.PointsPerSec == 0 {
				return report.None
			}
			return report.Sig3Cell(s.MicrosPerPoint)
		}},
		{"wall", report.LowerBest, func(s *Step) report.Cell { return report.DurationCell(s.Wall) }},
	}
	settle := false
	for _, x := range r.results() {
		settle = settle || x.Config.Settle
	}
	if settle {
		speed = append(speed, metric{"settle", report.LowerBest, func(s *Step) report.Cell {
			c := report.DurationCell(s.Settle)
			if s.SettleTimedOut {
				c.Text = ">" + c.Text
			}
			return c
		}})
	}
	return append(speed, metric{"CPU user+sys", report.LowerBest, func(s *Step) report.Cell { return report.DurationCell(s.CPUUser + s.CPUSys) }})
}

// descriptions are the environment lines of the engines that described
// the instance they ran on (Result.Description), once per engine and
// description.
func (r Report) descriptions() [][2]string {
	var lines [][2]string
	seen := map[[2]string]bool{}
	for _, res := range r.results() {
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
	for _, res := range r.results() {
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
		metric{"engine: in use", report.LowerBest, size(func(e *EngineSize) int64 { return e.InUse })},
		metric{"engine: on disk", report.LowerBest, size(func(e *EngineSize) int64 { return e.OnDisk })})
}

// memoryMetrics are memoryMetrics, the engine's processes' memory if one
// works in processes of its own, and the memory cgroup's figures if the
// engines ran in one (-memory).
func (r Report) memoryMetrics() []metric {
	ms := memoryMetrics
	if r.any(func(s *Step) bool { return s.Processes != nil }) {
		ms = append(slices.Clone(ms), metric{"engine processes' peak RSS (sum)", report.LowerBest, func(s *Step) report.Cell {
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
			metric{"cgroup peak (with page cache)", report.NoBest, cg(func(u *cgroup.Usage) int64 { return u.Peak })},
			metric{"cgroup page cache at end", report.NoBest, cg(func(u *cgroup.Usage) int64 { return u.Cache })},
			metric{"cgroup anonymous at end", report.LowerBest, cg(func(u *cgroup.Usage) int64 { return u.Anon })})
	}
	return ms
}

var storageMetrics = []metric{
	{"written (OS)", report.LowerBest, func(s *Step) report.Cell { return report.WrittenCell(s.IO) }},
	{"read (OS)", report.LowerBest, func(s *Step) report.Cell { return report.ReadCell(s.IO) }},
	{"write amp", report.LowerBest, func(s *Step) report.Cell {
		if s.WriteAmp == 0 {
			return report.None
		}
		return report.Sig3Cell(s.WriteAmp)
	}},
	{"disk used", report.LowerBest, func(s *Step) report.Cell { return report.BytesCell(s.Disk.Used) }},
	{"disk actual", report.LowerBest, func(s *Step) report.Cell { return report.BytesCell(s.Disk.Actual) }},
	{"disk apparent", report.LowerBest, func(s *Step) report.Cell { return report.BytesCell(s.Disk.Apparent) }},
	{"files", report.NoBest, func(s *Step) report.Cell { return report.CountCell(int64(s.Disk.Files)) }},
}

// memoryKind is a row of one kind of sampled memory (Step.Memory).
func memoryKind(name string, best report.Better, get func(*measure.MemoryPeaks) int64) metric {
	return metric{name, best, func(s *Step) report.Cell {
		if s.Memory == nil {
			return report.None
		}
		return report.BytesCell(get(s.Memory))
	}}
}

var memoryMetrics = []metric{
	memoryKind("private peak", report.LowerBest, func(m *measure.MemoryPeaks) int64 { return m.Private }),
	memoryKind("  of it Go runtime", report.NoBest, func(m *measure.MemoryPeaks) int64 { return m.Go }),
	memoryKind("mapped files peak", report.NoBest, func(m *measure.MemoryPeaks) int64 { return m.File }),
	{"peak RSS (with files)", report.NoBest, func(s *Step) report.Cell { return report.PeakRSSCell(s.PeakRSS) }},
	{"open fds", report.NoBest, func(s *Step) report.Cell {
		if s.OpenFDs == 0 {
			return report.Cell{Text: "n/a"}
		}
		return report.CountCell(int64(s.OpenFDs))
	}},
}

func latencyMetrics() []metric {
	var latency []metric
	for _, p := range report.Percentiles() {
		latency = append(latency, metric{p.Name, report.LowerBest, func(s *Step) report.Cell { return p.Cell(s.Latency) }})
	}
	return latency
}

var verifyMetrics = []metric{{"checked", report.NoBest, func(s *Step) report.Cell {
	v := s.Verify
	if v == nil {
		return report.None
	}
	if v.OK() {
		return report.Cell{Text: "ok, " + harness.Count(v.Read) + " points"}
	}
	return report.Cell{Text: fmt.Sprintf("%d missing, %d unexpected, %d wrong of %s", v.Missing, v.Unexpected, v.WrongValues, harness.Count(v.Expected))}
}}}

// CompareMetrics are the figures benchmark-storage compare shows by
// default: what a change to an engine or its settings usually moves.
var CompareMetrics = []report.CompareMetric{
	{Metric: "time_ns", Title: "Time"},
	{Metric: "cpu_user_ns", Title: "CPU user time"},
	{Metric: "io.write_bytes", Title: "Bytes written (OS)"},
	{Metric: "disk.used_bytes", Title: "DB size"},
	{Metric: "latency.p99_ns", Title: "p99 latency"},
	{Metric: "peak_rss_bytes", Title: "Peak RSS"},
}
