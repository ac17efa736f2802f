package micro

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// Report is the results of one or more engines on the same benchmarks,
// with the machine they ran on. An engine run several times (-count) has
// one Result per run, told apart by Repeat; every format then shows the
// median of each figure and its spread.
type Report struct {
	// RunID identifies the run that made the report, so that results of
	// several runs can be stacked (CSV) and told apart.
	RunID   string              `json:"run_id,omitempty"`
	Env     harness.Environment `json:"environment"`
	Results []*Result           `json:"results"`
}

// String renders the report for a terminal: µs/op with benchmarks as rows
// and engines as columns, the best of each row marked '*', then the
// errors, throughput, latency, storage, cost and verification tables, and
// the environment.
func (r Report) String() string { return r.page().Text() }

// Markdown renders the same report as GitHub-flavored Markdown, the best
// of each row in bold.
func (r Report) Markdown() string { return r.page().Markdown() }

// HTML renders the report as one self-contained page: charts of each
// benchmark's figures per engine, the tables of String, and the
// environment.
func (r Report) HTML() string { return r.page().HTML() }

// Summary is an engine's figures over its runs.
type Summary struct {
	Engine string `json:"engine"`
	// Runs is how many times the engine ran.
	Runs int `json:"runs"`
	// Benchmarks summarizes every number of each benchmark (see Bench),
	// named by its JSON path: {name, figures: [{metric, unit, n, median,
	// min, max}]}; name is the benchmark's label (readrandom#2).
	Benchmarks []report.PartStats `json:"benchmarks"`
}

// WriteJSON writes the report, every figure of every run and the
// environment, as indented JSON; when an engine ran more than once,
// "summary" holds the median and spread of each figure.
func (r Report) WriteJSON(w io.Writer) error {
	out := struct {
		Report
		Summary []Summary `json:"summary,omitempty"`
	}{Report: r}
	if r.maxRuns() > 1 {
		labels := rowLabels(r.config().Benchmarks)
		for _, g := range r.groups() {
			s := Summary{Engine: g.engine, Runs: len(g.runs)}
			for i, label := range labels {
				if runs := g.figures(i); len(runs) > 0 {
					s.Benchmarks = append(s.Benchmarks, report.SummarizeRuns(label, runs))
				}
			}
			out.Summary = append(out.Summary, s)
		}
	}
	return report.WriteJSON(w, out)
}

// Samples lists every number of every benchmark of each engine over its
// runs, for comparing two reports.
func (r Report) Samples() []report.Samples {
	var out []report.Samples
	labels := rowLabels(r.config().Benchmarks)
	for _, g := range r.groups() {
		for i, label := range labels {
			out = append(out, report.SamplesOf(g.engine, label, label, g.figures(i))...)
		}
	}
	return out
}

// group is the runs of one engine, in the order they ran.
type group struct {
	engine string
	runs   []*Result
}

// groups gathers the results by engine, in the order engines first
// appear.
// options are each engine's options, in the groups' order.
func (r Report) options() []map[string]any {
	var out []map[string]any
	for _, g := range r.groups() {
		out = append(out, g.runs[0].Options)
	}
	return out
}

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

// err is why the engine's runs failed, "" if none did.
func (g group) err() string {
	var errs []string
	for _, res := range g.runs {
		errs = append(errs, res.Error)
	}
	return report.RunsError(errs)
}

// figures are the figures of benchmark i in each of the engine's runs
// that has it.
func (g group) figures(i int) [][]report.Figure {
	var runs [][]report.Figure
	for _, res := range g.runs {
		if i < len(res.Benchmarks) {
			runs = append(runs, benchFigures(&res.Benchmarks[i]))
		}
	}
	return runs
}

// benchFigures are the figures of a benchmark, named by their JSON paths.
func benchFigures(b *Bench) []report.Figure { return report.Flatten("", b) }

// point is a figure of benchmark i over the engine's runs that have it.
func (g group) point(i int, get func(*Bench) (float64, bool)) report.Point {
	var vs []float64
	failed := false
	for _, res := range g.runs {
		if i >= len(res.Benchmarks) {
			continue
		}
		b := &res.Benchmarks[i]
		if v, ok := get(b); ok {
			vs = append(vs, v)
			failed = failed || b.Error != ""
		}
	}
	return report.Point{Stats: report.Summarize(vs), Failed: failed}
}

// results returns the non-nil results, so that a caller's gap cannot
// crash the rendering.
func (r Report) results() []*Result {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res *Result) bool { return res == nil })
}

// config is what the report's engines ran: the config of the first result
// that has one (an engine whose process crashed has none).
func (r Report) config() Config {
	for _, res := range r.results() {
		if len(res.Config.Benchmarks) > 0 {
			return res.Config
		}
	}
	return Config{}
}

func (r Report) intro() string {
	c := r.config()
	s := fmt.Sprintf("Micro benchmarks: %s entries per fill, %s keys of %d B, values of %d B compressible to %g, "+
		"batches of %d, write order %s, seed %d.\n"+
		"µs/op is engine time: generating keys and values and verifying reads are excluded. "+
		"MB = 10^6 bytes; sizes in binary units.\n"+
		"Best of each row marked *; ! marks a failed benchmark (see Errors).",
		harness.Count(c.Num), c.KeyType, c.KeyType.Size(), c.ValueSize, c.CompressionRatio, c.Batch, c.Order, c.Seed)
	for _, n := range r.setups() {
		s += "\nNote: " + n
	}
	return s + report.RepeatNote(r.maxRuns())
}

// setups lists the untimed preparations benchmarks needed, once each.
func (r Report) setups() []string {
	var out []string
	labels := rowLabels(r.config().Benchmarks)
	for i := range labels {
		for _, res := range r.results() {
			if i < len(res.Benchmarks) && res.Benchmarks[i].Setup != "" {
				out = append(out, labels[i]+": "+res.Benchmarks[i].Setup+".")
				break
			}
		}
	}
	return out
}

// rowLabels names the benchmarks of a run: a name that repeats is
// numbered from its second run on ("readrandom#2"), so that each label
// is distinct and can stand in a Go benchmark name.
func rowLabels(names []string) []string {
	seen := map[string]int{}
	out := make([]string, len(names))
	for i, n := range names {
		seen[n]++
		out[i] = n
		if seen[n] > 1 {
			out[i] += "#" + strconv.Itoa(seen[n])
		}
	}
	return out
}

// page lays the report out: the main table, then the extra ones.
func (r Report) page() report.Page {
	res := r.results()
	groups := r.groups()
	var engines []report.Engine
	for _, g := range groups {
		engines = append(engines, report.Engine{Name: g.engine, Error: g.err()})
	}
	names := r.config().Benchmarks
	labels := rowLabels(names)
	// cells are the figure m of benchmark i for each engine: the median of
	// its runs when it ran more than once.
	cells := func(i int, m metric) []report.Cell {
		var out []report.Cell
		for _, g := range groups {
			var cs []report.Cell
			for _, x := range g.runs {
				if i < len(x.Benchmarks) {
					b := &x.Benchmarks[i]
					cs = append(cs, report.Judge(m.get(b), b.Error, x.Error))
				}
			}
			c := report.Merge(cs)
			if len(cs) < len(g.runs) && len(cs) > 0 {
				c.Failed = true // a run stopped before this benchmark
			}
			c.Ranked = c.Ranked && g.err() == ""
			out = append(out, c)
		}
		return out
	}
	// has reports whether any engine has the figure for benchmark i.
	has := func(i int, f func(*Bench) bool) bool {
		for _, x := range res {
			if i < len(x.Benchmarks) && f(&x.Benchmarks[i]) {
				return true
			}
		}
		return false
	}
	grouped := func(title string, label func(i int) string, rows func(i int) bool, metrics []metric) report.Table {
		t := report.Table{Title: title, Head: report.Head(engines, "Benchmark", "Metric"), Labels: 2}
		for i := range names {
			if !rows(i) {
				continue
			}
			for k, m := range metrics {
				l := ""
				if k == 0 {
					l = label(i)
				}
				t.Rows = append(t.Rows, report.Row{Labels: []string{l, m.name}, Cells: cells(i, m), Best: m.best})
			}
		}
		return t
	}
	plain := func(i int) string { return labels[i] }
	all := func(int) bool { return true }

	perOp := metric{"µs/op", report.LowerBest, func(b *Bench) report.Cell {
		if b.Ops == 0 || b.Time == 0 {
			return report.None
		}
		return report.Sig3Cell(b.MicrosPerOp)
	}}
	main := report.Table{Head: report.Head(engines, "Benchmark"), Labels: 1}
	for i := range names {
		main.Rows = append(main.Rows, report.Row{Labels: []string{labels[i]}, Cells: cells(i, perOp), Best: perOp.best})
	}
	main.Rows = append(main.Rows, report.StatusRow(engines))

	rate := func(get func(*Bench) float64) func(*Bench) report.Cell {
		return func(b *Bench) report.Cell {
			if v := get(b); v > 0 {
				return report.RateCell(v)
			}
			return report.None
		}
	}
	throughput := []metric{
		{"ops/s", report.HigherBest, rate(func(b *Bench) float64 { return b.OpsPerSec })},
		{"MB/s", report.HigherBest, func(b *Bench) report.Cell {
			if b.MBPerSec <= 0 {
				return report.None
			}
			return report.Sig3Cell(b.MBPerSec)
		}},
	}
	var latency []metric
	for _, p := range report.Percentiles() {
		latency = append(latency, metric{p.Name, report.LowerBest, func(b *Bench) report.Cell { return p.Cell(b.Latency) }})
	}
	latencyLabel := func(i int) string {
		switch b := lookup(names[i]); {
		case b == nil:
		case b.batch:
			return labels[i] + " (per batch)"
		case b.kind == kindScan:
			return fmt.Sprintf("%s (per %d entries)", labels[i], ScanChunk)
		}
		return labels[i]
	}
	storageOf := func(get func(*Bench) report.Cell) func(*Bench) report.Cell {
		return func(b *Bench) report.Cell {
			if b.Storage == nil {
				return report.None
			}
			return get(b)
		}
	}
	storage := []metric{
		{"entries", report.NoBest, storageOf(func(b *Bench) report.Cell {
			c := report.CountCell(b.Storage.Entries)
			c.Text = harness.Count(b.Storage.Entries)
			return c
		})},
		{"flat array", report.NoBest, storageOf(func(b *Bench) report.Cell { return report.Cell{Text: report.Bytes(b.Storage.Flat)} })},
		{"disk used", report.LowerBest, storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Used) })},
		{"overhead", report.LowerBest, storageOf(func(b *Bench) report.Cell {
			if b.Storage.Entries == 0 {
				return report.None
			}
			return report.NumberCell(b.Storage.Overhead, func(v float64) string { return fmt.Sprintf("%.2f%%", v) })
		})},
		{"disk actual", report.LowerBest, storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Actual) })},
		{"disk apparent", report.LowerBest, storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Apparent) })},
		{"files", report.NoBest, storageOf(func(b *Bench) report.Cell { return report.CountCell(int64(b.Storage.Disk.Files)) })},
		{"reopened", report.LowerBest, storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Reopened.Used) })},
	}
	cost := []metric{
		{"wall", report.LowerBest, func(b *Bench) report.Cell { return report.DurationCell(b.Wall) }},
		{"CPU user+sys", report.LowerBest, func(b *Bench) report.Cell { return report.DurationCell(b.CPUUser + b.CPUSys) }},
		{"written (OS)", report.LowerBest, func(b *Bench) report.Cell { return report.WrittenCell(b.IO) }},
		{"read (OS)", report.LowerBest, func(b *Bench) report.Cell { return report.ReadCell(b.IO) }},
		{"private peak", report.LowerBest, func(b *Bench) report.Cell {
			if b.Memory == nil {
				return report.None
			}
			return report.BytesCell(b.Memory.Private)
		}},
		{"peak RSS (with files)", report.NoBest, func(b *Bench) report.Cell { return report.PeakRSSCell(b.PeakRSS) }},
	}
	verify := []metric{{"checked", report.NoBest, func(b *Bench) report.Cell {
		v := b.Verify
		switch {
		case v == nil:
			return report.None
		case !v.OK():
			return report.Cell{Text: fmt.Sprintf("%d missing, %d wrong of %s", v.Missing, v.Wrong, harness.Count(v.Expected))}
		case v.Expected == 0 && v.Read == 0 && b.Ops > 0:
			return report.Cell{Text: "ok, none of " + harness.Count(b.Ops) + " found"}
		}
		return report.Cell{Text: "ok, " + harness.Count(v.Read) + " entries"}
	}}}

	var engineNames []string
	for _, e := range engines {
		engineNames = append(engineNames, e.Name)
	}
	return report.Page{Title: "Micro benchmarks: " + strings.Join(engineNames, ", "),
		Intro: r.intro(), Engines: engines, Environment: r.Env.Lines(), Charts: r.charts(), Tables: []report.Table{
			main,
			grouped("Throughput (from engine time)", plain, all, throughput),
			grouped(fmt.Sprintf("Latency (per operation; batch writes per batch; scans per %d entries)", ScanChunk), latencyLabel, all, latency),
			grouped("Storage after writes (measured after closing the engine, and again after reopening it, when LSM engines have turned their logs into tables; overhead of the closed store over a flat array of the keys and values)", plain,
				func(i int) bool { return has(i, func(b *Bench) bool { return b.Storage != nil }) }, storage),
			grouped("Cost (CPU of all threads and I/O counted by the OS, including the engine's close after a write)", plain, all, cost),
			grouped("Verification (every entry read is checked; readCrc and readXxh64 against the checksum of the data written)", plain,
				func(i int) bool { return has(i, func(b *Bench) bool { return b.Verify != nil }) }, verify),
			report.SettingsTable(engineNames, r.options()),
		}}
}

// metric is one figure of a benchmark.
type metric struct {
	name string
	best report.Better
	get  func(*Bench) report.Cell
}

// CompareMetrics are the figures benchmark-storage compare shows by
// default: what a change to an engine or its settings usually moves.
var CompareMetrics = []report.CompareMetric{
	{Metric: "time_ns", Title: "Time"},
	{Metric: "cpu_user_ns", Title: "CPU user time"},
	{Metric: "io.write_bytes", Title: "Bytes written (OS)"},
	{Metric: "storage.disk.used_bytes", Title: "Store size"},
	{Metric: "latency.p99_ns", Title: "p99 latency"},
	{Metric: "peak_rss_bytes", Title: "Peak RSS"},
}
