package mixed

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
)

// Report is the results of one or more engines on the same mixed
// workload, with the machine they ran on. An engine run several times
// (-count) has one Result per run; the tables then show the median of
// each figure and its spread.
type Report struct {
	// RunID identifies the run that made the report.
	RunID   string              `json:"run_id,omitempty"`
	Env     harness.Environment `json:"environment"`
	Results []*Result           `json:"results"`
}

// String renders the report for a terminal: throughput per operation
// kind with engines as columns, the best of each row marked '*', then
// the errors, latency, verification and cost tables, and the
// environment.
func (r Report) String() string { return r.page().Text() }

// Markdown renders the same report as GitHub-flavored Markdown.
func (r Report) Markdown() string { return r.page().Markdown() }

// HTML renders the report as one self-contained page with charts of the
// throughput over time and the latency percentiles.
func (r Report) HTML() string { return r.page().HTML() }

// WriteJSON writes every figure of every run and the environment as
// indented JSON (schema: see the package documentation).
func (r Report) WriteJSON(w io.Writer) error { return report.WriteJSON(w, r) }

// WriteCSV writes the report in long form under the header
// run_id,start,engine,repeat,operation,metric,stat,value,unit,text (see
// report.CSV): environment rows, then per run a "run" part (version,
// options, config, dataset, elapsed, cost, disk, engine metrics, final
// check), a "preload" part, and a part per operation kind with its
// figures named by their JSON paths; its per-second counts are the
// metrics per_second.0, per_second.1, ... in order.
func (r Report) WriteCSV(w io.Writer) error {
	c := report.NewCSV(w, "operation", r.RunID, r.Env.Start)
	c.Put("", 0, "environment", report.TextFigures(r.Env.Metrics()))
	for _, res := range r.results() {
		rep := max(res.Repeat, 1)
		c.Put(res.Engine, rep, "run", report.Flatten("", struct {
			Version string          `json:"version"`
			Options map[string]any  `json:"options"`
			Config  Config          `json:"config"`
			Dataset *dataset.Use    `json:"dataset"`
			Elapsed time.Duration   `json:"elapsed_ns"`
			Cost    harness.Cost    `json:"cost"`
			Disk    diskusage.Usage `json:"disk"`
			Metrics engine.Metrics  `json:"engine_metrics"`
			Final   *Verification   `json:"final_check"`
			Error   string          `json:"error"`
		}{res.Version, res.Options, res.Config, res.Dataset, res.Elapsed, res.Cost, res.Disk, res.EngineMetrics, res.Final, res.Error}))
		if res.Preload != nil {
			c.Put(res.Engine, rep, "preload", report.Flatten("", res.Preload))
		}
		for i := range res.Operations {
			op := &res.Operations[i]
			figs := slices.DeleteFunc(report.Flatten("", op), func(f report.Figure) bool { return f.Metric == "kind" })
			for j, n := range op.PerSecond {
				figs = append(figs, report.Figure{Metric: "per_second." + strconv.Itoa(j), Unit: "count", Value: float64(n)})
			}
			c.Put(res.Engine, rep, op.Kind, figs)
		}
	}
	return c.Flush()
}

// results returns the non-nil results.
func (r Report) results() []*Result {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res *Result) bool { return res == nil })
}

// group is the runs of one engine, in the order they ran.
type group struct {
	engine string
	runs   []*Result
}

func (r Report) groups() []group {
	var out []group
	for _, runs := range report.Groups(r.Results, func(res *Result) string { return res.Engine }) {
		out = append(out, group{runs[0].Engine, runs})
	}
	return out
}

func (g group) err() string {
	var errs []string
	for _, res := range g.runs {
		errs = append(errs, res.Error)
	}
	return report.RunsError(errs)
}

// config is the workload the engines ran: that of the first result that
// has one (an engine whose process crashed has none).
func (r Report) config() Config {
	for _, res := range r.results() {
		if res.Config.Duration > 0 {
			return res.Config
		}
	}
	return Config{}
}

// kinds are the operation kinds any engine ran, in report order.
func (r Report) kinds() []string {
	var out []string
	for _, k := range append([]string{KindWrite}, QueryKinds...) {
		for _, res := range r.results() {
			if res.Operation(k) != nil {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

func (r Report) intro() string {
	c := r.config()
	var b strings.Builder
	fmt.Fprintf(&b, "%s and %s for %v over %s series, batches of %d, seed %d", plural(c.Writers, "writer"), plural(c.Readers, "reader"), c.Duration, harness.Count(c.Series), c.Batch, c.Seed)
	if c.Points > 0 {
		fmt.Fprintf(&b, ", preload %s points", harness.Count(c.Points))
	}
	if c.Rate > 0 {
		fmt.Fprintf(&b, ", writes capped at %s points/s", report.Rate(c.Rate))
	}
	if c.Readers > 0 {
		skew := "uniform"
		if c.Skew > 0 {
			skew = "zipfian " + strconv.FormatFloat(c.Skew, 'g', -1, 64)
		}
		fmt.Fprintf(&b, ".\nQueries: mix %s, series %s, window %v, multi over %d series", c.Mix, skew, c.Window, c.MultiSeries)
	}
	b.WriteString(".\nOps/s over the whole run; latency per batch (write) or per query, checking excluded; every point read is checked " +
		"against what writers had acknowledged.\nBest of each row marked *; ! marks a failed figure (see Errors). Sizes in binary units.")
	for _, res := range r.results() {
		if d := res.Dataset; d != nil && d.Reused {
			fmt.Fprintf(&b, "\n%s: preload not written: reused the dataset %s (written %s), cloned by %s in %s.",
				res.Engine, d.Path, d.Created.UTC().Format("2006-01-02 15:04"), d.Method, report.Duration(d.Clone))
		}
	}
	var runs int
	for _, g := range r.groups() {
		runs = max(runs, len(g.runs))
	}
	return b.String() + report.RepeatNote(runs)
}

func (r Report) engines() []report.Engine {
	var out []report.Engine
	for _, g := range r.groups() {
		out = append(out, report.Engine{Name: g.engine, Error: g.err()})
	}
	return out
}

// cells are a figure of each engine, the median of its runs; get says
// whether a run has the figure and whether it failed.
func (r Report) cells(get func(*Result) (report.Cell, bool, bool)) []report.Cell {
	var out []report.Cell
	for _, g := range r.groups() {
		var cs []report.Cell
		for _, res := range g.runs {
			if c, ok, failed := get(res); ok {
				failedErr := ""
				if failed {
					failedErr = "failed"
				}
				cs = append(cs, report.Judge(c, failedErr, res.Error))
			}
		}
		if len(cs) == 0 {
			out = append(out, report.None)
			continue
		}
		c := report.Merge(cs)
		c.Ranked = c.Ranked && g.err() == ""
		out = append(out, c)
	}
	return out
}

// opCells are a figure of operation kind for each engine.
func (r Report) opCells(kind string, get func(*Operation) report.Cell) []report.Cell {
	return r.cells(func(res *Result) (report.Cell, bool, bool) {
		op := res.Operation(kind)
		if op == nil {
			return report.Cell{}, false, false
		}
		return get(op), true, op.Verify != nil && !op.Verify.OK()
	})
}

// label names a kind in the tables.
func label(kind string) string {
	if kind == KindWrite {
		return "write (points)"
	}
	return kind
}

func (r Report) page() report.Page {
	engines := r.engines()
	kinds := r.kinds()
	main := report.Table{Head: report.Head(engines, "Operation", "Metric"), Labels: 2}
	for _, k := range kinds {
		main.Rows = append(main.Rows,
			report.Row{Labels: []string{label(k), "ops/s"}, Best: report.HigherBest, Cells: r.opCells(k, func(o *Operation) report.Cell { return report.RateCell(o.OpsPerSec) })},
			report.Row{Labels: []string{"", "p99"}, Best: report.LowerBest, Cells: r.opCells(k, func(o *Operation) report.Cell { return report.Percentiles()[1].Cell(o.Latency) })})
	}
	status := report.StatusRow(engines)
	status.Labels = append(status.Labels, "")
	main.Rows = append(main.Rows, status)

	latency := report.Table{Title: "Latency (write: per batch; queries: per query, checking excluded)", Head: report.Head(engines, "Operation", "Metric"), Labels: 2}
	for _, k := range kinds {
		for i, p := range report.Percentiles() {
			l := ""
			if i == 0 {
				l = label(k)
			}
			latency.Rows = append(latency.Rows, report.Row{Labels: []string{l, p.Name}, Best: report.LowerBest,
				Cells: r.opCells(k, func(o *Operation) report.Cell { return p.Cell(o.Latency) })})
		}
	}

	throughput := report.Table{Title: "Throughput over time (operations in each second: slowest, median and fastest second)", Head: report.Head(engines, "Operation", "Metric"), Labels: 2}
	for _, k := range kinds {
		for i, s := range []string{"min", "median", "max"} {
			l := ""
			if i == 0 {
				l = label(k)
			}
			throughput.Rows = append(throughput.Rows, report.Row{Labels: []string{l, s + "/s"}, Best: report.HigherBest,
				Cells: r.opCells(k, func(o *Operation) report.Cell { return perSecondCell(o.PerSecondStats, i) })})
		}
	}

	verify := report.Table{Title: "Verification (every point read checked against what writers had acknowledged)", Head: report.Head(engines, "Operation"), Labels: 1}
	for _, k := range kinds {
		if k == KindWrite {
			continue
		}
		verify.Rows = append(verify.Rows, report.Row{Labels: []string{k}, Cells: r.opCells(k, func(o *Operation) report.Cell { return verifyCell(o.Verify) })})
	}
	verify.Rows = append(verify.Rows, report.Row{Labels: []string{"final check"}, Cells: r.cells(func(res *Result) (report.Cell, bool, bool) {
		return verifyCell(res.Final), res.Final != nil, res.Final != nil && !res.Final.OK()
	})})

	cost := report.Table{Title: "Cost (of the mixed run, every thread; I/O counted by the OS; disk at the end)", Head: report.Head(engines, "Metric"), Labels: 1}
	run := func(name string, best report.Better, get func(*Result) report.Cell) {
		cost.Rows = append(cost.Rows, report.Row{Labels: []string{name}, Best: best, Cells: r.cells(func(res *Result) (report.Cell, bool, bool) {
			return get(res), res.Config.Duration > 0, false
		})})
	}
	run("elapsed", report.NoBest, func(res *Result) report.Cell { return report.DurationCell(res.Elapsed) })
	run("CPU user+sys", report.LowerBest, func(res *Result) report.Cell { return report.DurationCell(res.Cost.CPUUser + res.Cost.CPUSys) })
	run("written (OS)", report.LowerBest, func(res *Result) report.Cell { return report.WrittenCell(res.Cost.IO) })
	run("read (OS)", report.LowerBest, func(res *Result) report.Cell { return report.ReadCell(res.Cost.IO) })
	run("peak RSS", report.LowerBest, func(res *Result) report.Cell { return report.PeakRSSCell(res.Cost.PeakRSS) })
	run("disk used", report.LowerBest, func(res *Result) report.Cell { return report.BytesCell(res.Disk.Used) })
	if r.config().Points > 0 {
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
		run("preload time", report.LowerBest, pre(func(p *Preload) report.Cell { return report.DurationCell(p.Time) }))
		run("preload points/s", report.HigherBest, pre(func(p *Preload) report.Cell { return report.RateCell(p.PointsPerSec) }))
	}

	tables := []report.Table{main, latency, throughput, verify, cost}
	if t := r.metricsTable(engines); len(t.Rows) > 0 {
		tables = append(tables, t)
	}
	names := make([]string, len(engines))
	for i, e := range engines {
		names[i] = e.Name
	}
	var opts []map[string]any
	for _, g := range r.groups() {
		opts = append(opts, g.runs[0].Options)
	}
	tables = append(tables, report.SettingsTable(names, opts))
	return report.Page{
		Title:   "Mixed time-series workload: " + strings.Join(names, ", "),
		Intro:   r.intro(),
		Engines: engines, Environment: r.Env.Lines(), Charts: r.charts(kinds),
		Tables: tables,
	}
}

// metricsTable has a row per engine metric some engine reports, none if
// no engine reports any.
func (r Report) metricsTable(engines []report.Engine) report.Table {
	t := report.Table{Title: "Engine metrics (of the mixed run, as each engine counts its own work, so not comparable across engines; " +
		"memtable_bytes at the end; - where the engine reports none)", Head: report.Head(engines, "Metric"), Labels: 1}
	var ms []engine.Metrics
	for _, res := range r.results() {
		ms = append(ms, res.EngineMetrics)
	}
	for _, name := range engine.MetricNamesIn(ms...) {
		t.Rows = append(t.Rows, report.Row{Labels: []string{name}, Best: report.NoBest, Cells: r.cells(func(res *Result) (report.Cell, bool, bool) {
			v, ok := res.EngineMetrics[name]
			if !ok {
				return report.Cell{}, false, false
			}
			return report.MetricCell(name, v), true, false
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

func verifyCell(v *Verification) report.Cell {
	if v == nil {
		return report.None
	}
	if v.OK() {
		return report.Cell{Text: "ok, " + report.FormatCount(float64(v.Read)) + " points"}
	}
	return report.Cell{Text: fmt.Sprintf("%d missing, %d wrong of %s read", v.Missing, v.WrongValues, report.FormatCount(float64(v.Read)))}
}

// charts are the HTML report's pictures: each kind's operations per
// second through the run, and its latency percentiles.
func (r Report) charts(kinds []string) []report.Chart {
	over := report.Chart{Title: "Throughput over time", Note: "Operations in each second of the run (points for writes). Higher is better."}
	lat := report.Chart{Title: "Latency percentiles", Note: "Write: per batch; queries: per query. Lower is better."}
	for _, k := range kinds {
		secs := 0
		for _, res := range r.results() {
			if op := res.Operation(k); op != nil {
				secs = max(secs, len(op.PerSecond))
			}
		}
		oc := report.Chart{Title: label(k), Kind: report.Lines, Format: report.Rate, Unit: "ops/s"}
		for s := range secs {
			oc.Groups = append(oc.Groups, strconv.Itoa(s+1)+"s")
		}
		lc := report.Chart{Title: label(k), Kind: report.Lines, Format: report.FormatDuration, Unit: "ns"}
		for _, p := range report.Percentiles() {
			lc.Groups = append(lc.Groups, p.Name)
		}
		for _, g := range r.groups() {
			os := report.ChartSeries{Name: g.engine}
			for s := range secs {
				os.Points = append(os.Points, g.point(k, func(o *Operation) (float64, bool) {
					if s >= len(o.PerSecond) {
						return 0, false
					}
					return float64(o.PerSecond[s]), true
				}))
			}
			oc.Series = append(oc.Series, os)
			ls := report.ChartSeries{Name: g.engine}
			for _, p := range report.Percentiles() {
				ls.Points = append(ls.Points, g.point(k, func(o *Operation) (float64, bool) {
					return latencyOf(o.Latency, p)
				}))
			}
			lc.Series = append(lc.Series, ls)
		}
		over.Panels = append(over.Panels, oc)
		lat.Panels = append(lat.Panels, lc)
	}
	return []report.Chart{over, lat}
}

func latencyOf(l *measure.Percentiles, p report.Percentile) (float64, bool) {
	if l == nil || l.Count == 0 {
		return 0, false
	}
	return float64(p.Of(l)), true
}

// point is a figure of kind over the engine's runs that have it.
func (g group) point(kind string, get func(*Operation) (float64, bool)) report.Point {
	var vs []float64
	failed := false
	for _, res := range g.runs {
		if op := res.Operation(kind); op != nil {
			if v, ok := get(op); ok {
				vs = append(vs, v)
				failed = failed || (op.Verify != nil && !op.Verify.OK())
			}
		}
	}
	return report.Point{Stats: report.Summarize(vs), Failed: failed}
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
	var out []report.Samples
	for _, g := range r.groups() {
		for _, k := range r.kinds() {
			var runs [][]report.Figure
			for _, res := range g.runs {
				if op := res.Operation(k); op != nil {
					runs = append(runs, report.Flatten("", op))
				}
			}
			out = append(out, report.SamplesOf(g.engine, k, label(k), runs)...)
		}
	}
	return out
}

// CompareMetrics are the figures benchmark-storage compare shows by
// default for mixed runs.
var CompareMetrics = []report.CompareMetric{
	{Metric: "ops_per_sec", Title: "Throughput"},
	{Metric: "latency.p50_ns", Title: "p50 latency"},
	{Metric: "latency.p99_ns", Title: "p99 latency"},
}
