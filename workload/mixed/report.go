package mixed

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/querymix"
	"github.com/tsbench/storage/workload/results"
)

// Report is the results of one or more engines on the same mixed
// workload, with the machine they ran on. An engine run several times
// (-count) has one Result per run; the tables then show the median of
// each figure and its spread.
// Its fields, RunID, Env and Results, are results.Report's.
type Report results.Report[Result]

// WriteCSV writes the report in long form under the header
// run_id,start,engine,repeat,operation,metric,stat,value,unit,text (see
// report.CSV): environment rows, then per run a "run" part (version,
// options, config, dataset, elapsed, cost, disk, engine metrics, final
// check), a "preload" part, and a part per operation kind with its
// figures named by their JSON paths; its per-second counts are the
// metrics per_second.0, per_second.1, ... in order. With a warm-up, a
// "warmup" part (its elapsed time) and a "warmup/KIND" part per kind.
func (r Report) WriteCSV(w io.Writer) error {
	return r.set().WriteCSV(w, "operation", r.RunID, r.Env, nil)
}

// set gathers the results by engine.
func (r Report) set() *results.Set[Result] { return results.New(schema, r.Results) }

// schema tells the report plumbing how to read a Result: the preload and
// each operation kind are parts of their own.
var schema = results.Schema[Result]{
	Header: func(res *Result) *harness.Header { return &res.Header },
	Error:  func(res *Result) string { return res.Error },
	Ran:    func(res *Result) bool { return res.Config.Duration > 0 },
	Run: func(res *Result) []report.Figure {
		if res.Elapsed == 0 {
			// It never ran (its engine did not open): no figure, rather
			// than zeros.
			return results.RunFigures(res.Header, res.Error, report.Flatten("config", res.Config))
		}
		return results.RunFigures(res.Header, res.Error, report.Flatten("config", res.Config), report.Flatten("dataset", res.Dataset),
			report.Flatten("elapsed_ns", res.Elapsed), report.Flatten("cost", res.Cost), report.Flatten("disk", res.Disk),
			report.Flatten("engine_metrics", res.EngineMetrics), report.Flatten("final_check", res.Final))
	},
	Parts: func(res *Result) []results.Part {
		var out []results.Part
		if res.Preload != nil {
			out = append(out, results.Part{Name: "preload", Figures: report.Flatten("", res.Preload)})
		}
		for i := range res.Operations {
			op := &res.Operations[i]
			figs := slices.DeleteFunc(report.Flatten("", op), func(f report.Figure) bool { return f.Metric == "kind" })
			for j, n := range op.PerSecond {
				figs = append(figs, report.Figure{Metric: "per_second." + strconv.Itoa(j), Unit: "count", Value: float64(n)})
			}
			out = append(out, results.Part{Name: op.Kind, Figures: figs})
		}
		if res.Warmup != nil {
			out = append(out, results.Part{Name: "warmup", Figures: report.Flatten("elapsed_ns", res.Warmup.Elapsed)})
			for i := range res.Warmup.Operations {
				op := &res.Warmup.Operations[i]
				figs := slices.DeleteFunc(report.Flatten("", op), func(f report.Figure) bool { return f.Metric == "kind" })
				out = append(out, results.Part{Name: "warmup/" + op.Kind, Figures: figs})
			}
		}
		return out
	},
}

// config is the workload the report's engines ran.
func (r Report) config() Config {
	return results.Config(r.set(), func(res *Result) Config { return res.Config })
}

// kinds are the operation kinds any engine ran, in report order.
func (r Report) kinds(set *results.Set[Result]) []string {
	var out []string
	for _, k := range append([]string{KindWrite}, querymix.QueryKinds...) {
		if slices.ContainsFunc(set.All, func(res *Result) bool { return res.Operation(k) != nil }) {
			out = append(out, k)
		}
	}
	return out
}

func (r Report) intro(set *results.Set[Result]) string {
	c := r.config()
	var b strings.Builder
	fmt.Fprintf(&b, "%s and %s for %v over %s series, batches of %d, seed %d", plural(c.Writers, "writer"), plural(c.Readers, "reader"), c.Duration, harness.Count(c.Series), c.Batch, c.Seed)
	b.WriteString(c.Values.Note())
	if c.Points > 0 {
		fmt.Fprintf(&b, ", preload %s points", harness.Count(c.Points))
	}
	if c.Rate > 0 {
		fmt.Fprintf(&b, ", writes capped at %s points/s", report.Rate(c.Rate))
	}
	if c.Warmup > 0 {
		fmt.Fprintf(&b, ", the first %v a warm-up, whose figures are apart and not in the run's", c.Warmup)
	}
	if c.Readers > 0 {
		skew := "uniform"
		if c.Skew > 0 {
			skew = "zipfian " + strconv.FormatFloat(c.Skew, 'g', -1, 64)
		}
		fmt.Fprintf(&b, ".\nQueries: mix %s, series %s, window %v", c.Mix, skew, c.Window)
		if c.MultiSeries > 0 { // unset in a run that failed before it started
			fmt.Fprintf(&b, ", multi over %d series", c.MultiSeries)
		}
	}
	b.WriteString(".\nOps/s over the whole run; latency per batch (write) or per query, checking excluded; every point read is checked " +
		"against what writers had acknowledged.\nBest of each row marked *; ! marks a failed figure (see Errors). Sizes in binary units.")
	for _, res := range set.All {
		b.WriteString(res.Dataset.Note(res.Engine, "preload not written"))
	}
	return b.String() + set.RepeatNote()
}

// opCells are a figure of operation kind for each engine; a query
// kind whose reads did not check out is failed.
func opCells(set *results.Set[Result], kind string, get func(*Operation) report.Cell) []report.Cell {
	return set.Cells(func(res *Result) (report.Cell, bool, string) {
		op := res.Operation(kind)
		if op == nil {
			return report.Cell{}, false, ""
		}
		return get(op), true, failed(op.Verify)
	})
}

// failed is why v makes its figures fail, "" if it checked out or there
// is none.
func failed(v *harness.Verification) string {
	if v != nil && !v.OK() {
		return "verification failed"
	}
	return ""
}

// label names a kind in the tables.
func label(kind string) string {
	if kind == KindWrite {
		return "write (points)"
	}
	return kind
}

// Page lays the report out for every format (report.Write): throughput
// per operation kind with engines as columns, the best of each row
// marked, then the errors, latency, verification and cost tables, and the
// environment; the HTML form charts the throughput over time and the
// latency percentiles.
func (r Report) Page() report.Page {
	set := r.set()
	engines := set.Engines()
	kinds := r.kinds(set)
	// grouped is a table of a row per metric of each kind.
	grouped := func(title string, metrics []results.Metric[Operation]) report.Table {
		t := report.Table{Title: title, Head: report.Head(engines, "Operation", "Metric"), Labels: 2}
		for _, k := range kinds {
			for i, m := range metrics {
				l := ""
				if i == 0 {
					l = label(k)
				}
				t.Rows = append(t.Rows, report.Row{Labels: []string{l, m.Name}, Best: m.Best, Cells: opCells(set, k, m.Get)})
			}
		}
		return t
	}
	main := grouped("", []results.Metric[Operation]{
		{Name: "ops/s", Best: report.HigherBest, Get: func(o *Operation) report.Cell { return report.RateCell(o.OpsPerSec) }},
		{Name: "p99", Best: report.LowerBest, Get: func(o *Operation) report.Cell { return report.Percentiles()[1].Cell(o.Latency) }},
	})
	status := report.StatusRow(engines)
	status.Labels = append(status.Labels, "")
	main.Rows = append(main.Rows, status)

	var perSecond []results.Metric[Operation]
	for i, s := range []string{"min", "median", "max"} {
		perSecond = append(perSecond, results.Metric[Operation]{Name: s + "/s", Best: report.HigherBest,
			Get: func(o *Operation) report.Cell { return perSecondCell(o.PerSecondStats, i) }})
	}

	verify := report.Table{Title: "Verification (every point read checked against what writers had acknowledged)", Head: report.Head(engines, "Operation"), Labels: 1}
	for _, k := range kinds {
		if k == KindWrite {
			continue
		}
		verify.Rows = append(verify.Rows, report.Row{Labels: []string{k}, Cells: opCells(set, k, func(o *Operation) report.Cell { return results.VerifyCell(o.Verify, "points") })})
	}
	verify.Rows = append(verify.Rows, report.Row{Labels: []string{"final check"}, Cells: set.Cells(func(res *Result) (report.Cell, bool, string) {
		return results.VerifyCell(res.Final, "points"), res.Final != nil, failed(res.Final)
	})})

	costs := []results.Metric[Result]{
		{Name: "elapsed", Best: report.NoBest, Get: func(res *Result) report.Cell { return report.DurationCell(res.Elapsed) }},
		{Name: "CPU user+sys", Best: report.LowerBest, Get: func(res *Result) report.Cell { return report.DurationCell(res.Cost.CPUUser + res.Cost.CPUSys) }},
		{Name: "written (OS)", Best: report.LowerBest, Get: func(res *Result) report.Cell { return report.WrittenCell(res.Cost.IO) }},
		{Name: "read (OS)", Best: report.LowerBest, Get: func(res *Result) report.Cell { return report.ReadCell(res.Cost.IO) }},
		{Name: "peak RSS", Best: report.LowerBest, Get: func(res *Result) report.Cell { return report.PeakRSSCell(res.Cost.PeakRSS) }},
	}
	costs = append(costs, results.MemoryMetrics(func(res *Result) *measure.MemoryPeaks { return res.Cost.Memory })...)
	costs = append(costs, results.Metric[Result]{Name: "disk used", Best: report.LowerBest, Get: func(res *Result) report.Cell { return report.BytesCell(res.Disk.Used) }},
		results.Metric[Result]{Name: "bytes/point", Best: report.LowerBest, Get: func(res *Result) report.Cell { return results.BytesPerPointCell(res.BytesPerPoint) }})
	whole := ""
	if r.config().Warmup > 0 {
		whole = ", its warm-up included"
	}
	cost := report.Table{Title: "Cost (of the mixed run" + whole + ", every thread; I/O counted by the OS; memory peaks sampled 5 times a second, " +
		"private = anonymous memory, mapped files = page cache the kernel can drop; disk at the end)",
		Head: report.Head(engines, "Metric"), Labels: 1, Rows: set.Rows(append(costs, r.preloadMetrics()...)...)}

	tables := []report.Table{main}
	if len(kinds) > 0 {
		// No engine ran an operation (every one failed): no empty tables.
		tables = append(tables,
			grouped("Latency (write: per batch; queries: per query, checking excluded)", r.latencyMetrics()),
			grouped("Throughput over time (operations in each second: slowest, median and fastest second)", perSecond),
			verify)
	}
	if t := r.warmupTable(set, kinds); len(t.Rows) > 0 {
		tables = append(tables, t)
	}
	tables = append(tables, cost)
	if t := metricsTable(set); len(t.Rows) > 0 {
		tables = append(tables, t)
	}
	return set.Page("Mixed time-series workload", r.intro(set), r.Env.Lines(), append(tables, set.Settings()), r.charts(set, kinds))
}

// latencyMetrics are the latency rows of an operation: p50, p99, p99.9
// and max, then each percentile -percentiles asked for.
func (r Report) latencyMetrics() []results.Metric[Operation] {
	return append(results.LatencyMetrics(func(o *Operation) *measure.Percentiles { return o.Latency }),
		results.PercentileMetrics(r.config().Percentiles, func(o *Operation) map[string]time.Duration { return o.Percentiles })...)
}

// warmupTable is the warm-up's figures, as the main and latency tables
// show the run's: no rows without a warm-up.
func (r Report) warmupTable(set *results.Set[Result], kinds []string) report.Table {
	c := r.config()
	t := report.Table{Title: fmt.Sprintf("Warm-up (the first %v, excluded from the tables above)", c.Warmup), Head: report.Head(set.Engines(), "Operation", "Metric"), Labels: 2}
	if c.Warmup == 0 {
		return t
	}
	metrics := append([]results.Metric[Operation]{{Name: "ops/s", Best: report.HigherBest, Get: func(o *Operation) report.Cell { return report.RateCell(o.OpsPerSec) }}}, r.latencyMetrics()...)
	for _, k := range kinds {
		for i, m := range metrics {
			l := ""
			if i == 0 {
				l = label(k)
			}
			t.Rows = append(t.Rows, report.Row{Labels: []string{l, m.Name}, Best: m.Best, Cells: set.Cells(func(res *Result) (report.Cell, bool, string) {
				op := res.Warmup.Operation(k)
				if op == nil {
					return report.Cell{}, false, ""
				}
				return m.Get(op), true, failed(op.Verify)
			})})
		}
	}
	return t
}

// preloadMetrics are the rows of the preload, when there was one.
func (r Report) preloadMetrics() []results.Metric[Result] {
	if r.config().Points == 0 {
		return nil
	}
	pre := func(get func(*Preload) report.Cell) func(*Result) report.Cell {
		return func(res *Result) report.Cell {
			if res.Preload == nil {
				if res.Dataset != nil && res.Dataset.Reused {
					return report.Cell{Text: "reused"}
				}
				return report.None
			}
			return get(res.Preload)
		}
	}
	return []results.Metric[Result]{
		{Name: "preload time", Best: report.LowerBest, Get: pre(func(p *Preload) report.Cell { return report.DurationCell(p.Time) })},
		{Name: "preload points/s", Best: report.HigherBest, Get: pre(func(p *Preload) report.Cell { return report.RateCell(p.PointsPerSec) })},
	}
}

// metricsTable has a row per engine metric some engine reports, none if
// no engine reports any.
func metricsTable(set *results.Set[Result]) report.Table {
	t := report.Table{Title: "Engine metrics (of the mixed run, as each engine counts its own work, so not comparable across engines; " +
		"memtable_bytes at the end; - where the engine reports none)", Head: report.Head(set.Engines(), "Metric"), Labels: 1}
	var ms []engine.Metrics
	for _, res := range set.All {
		ms = append(ms, res.EngineMetrics)
	}
	for _, name := range engine.MetricNamesIn(ms...) {
		t.Rows = append(t.Rows, report.Row{Labels: []string{name}, Best: report.NoBest, Cells: set.Cells(func(res *Result) (report.Cell, bool, string) {
			v, ok := res.EngineMetrics[name]
			return report.MetricCell(name, v), ok, ""
		})})
	}
	return t
}

// perSecondCell is the slowest (i 0), median (1) or fastest (2) whole
// second of stats (Operation.PerSecondStats).
func perSecondCell(stats *Spread, i int) report.Cell {
	if stats == nil {
		return report.None
	}
	return report.RateCell([3]float64{stats.Min, stats.Median, stats.Max}[i])
}

// charts are the HTML report's pictures: each kind's operations per
// second through the run, its latency percentiles, and the store's bytes
// per point at the end.
func (r Report) charts(set *results.Set[Result], kinds []string) []report.Chart {
	over := report.Chart{Title: "Throughput over time", Note: "Operations in each second of the run (points for writes). Higher is better."}
	lat := report.Chart{Title: "Latency percentiles", Note: "Write: per batch; queries: per query. Lower is better."}
	for _, k := range kinds {
		secs := 0
		for _, res := range set.All {
			if op := res.Operation(k); op != nil {
				secs = max(secs, len(op.PerSecond))
			}
		}
		var groups []string
		for s := range secs {
			groups = append(groups, strconv.Itoa(s+1)+"s")
		}
		over.Panels = append(over.Panels, set.Chart(report.Chart{Title: label(k), Kind: report.Lines, Format: report.Rate, Unit: "ops/s"}, groups,
			func(s int, res *Result) results.Value {
				op := res.Operation(k)
				if op == nil || s >= len(op.PerSecond) {
					return results.Value{}
				}
				return results.Value{V: float64(op.PerSecond[s]), OK: true, Failed: failed(op.Verify) != ""}
			}))
		lat.Panels = append(lat.Panels, set.PercentileChart(label(k), func(res *Result) (*measure.Percentiles, bool) {
			if op := res.Operation(k); op != nil {
				return op.Latency, failed(op.Verify) != ""
			}
			return nil, false
		}))
	}
	out := []report.Chart{over, lat}
	if size := set.BytesPerPointChart(func(res *Result) (float64, bool) { return res.BytesPerPoint, res.Error != "" }); results.Drawn(size) {
		out = append(out, size)
	}
	return out
}

// plural is "1 writer", "2 writers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Samples lists every number of every operation kind of each engine over
// its runs, labelled as the tables label them, for comparing two reports.
func (r Report) Samples() []report.Samples {
	set := r.set()
	return set.Samples(r.kinds(set), label, func(res *Result, kind string) []report.Figure {
		if op := res.Operation(kind); op != nil {
			return report.Flatten("", op)
		}
		return nil
	})
}

// CompareMetrics are the figures benchmark-storage compare shows by
// default for mixed runs.
var CompareMetrics = []report.CompareMetric{
	{Metric: "ops_per_sec", Title: "Throughput"},
	{Metric: "latency.p50_ns", Title: "p50 latency"},
	{Metric: "latency.p99_ns", Title: "p99 latency"},
}
