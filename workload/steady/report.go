package steady

import (
	"cmp"
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
	"github.com/tsbench/storage/workload/results"
)

// Report is the results of one or more engines on the same steady-state
// workload, with the machine they ran on; an engine run several times
// (-count) has one Result per run, and the tables show medians.
// Its fields, RunID, Env and Results, are results.Report's.
type Report results.Report[Result]

// WriteCSV writes the report in long form (report.CSV): environment
// rows, then per run a "run" part with every figure but the intervals,
// named by its JSON path, and a part per interval ("interval.0", ...).
func (r Report) WriteCSV(w io.Writer) error {
	return r.set().WriteCSV(w, "part", r.RunID, r.Env, nil)
}

// set gathers the results by engine.
func (r Report) set() *results.Set[Result] { return results.New(schema, r.Results) }

// schema tells the report plumbing how to read a Result: each interval is a
// part of its own, "interval.0", "interval.1"...
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
		whole := *res
		whole.Intervals = nil
		return report.Flatten("", whole)
	},
	Parts: func(res *Result) []results.Part {
		var out []results.Part
		for i, iv := range res.Intervals {
			out = append(out, results.Part{Name: "interval." + strconv.Itoa(i), Figures: report.Flatten("", iv)})
		}
		return out
	},
}

// config is the workload the report's engines ran.
func (r Report) config() Config {
	return results.Config(r.set(), func(res *Result) Config { return res.Config })
}

func latencyCell(p *measure.Percentiles, of func(*measure.Percentiles) time.Duration) (report.Cell, bool) {
	if p == nil || p.Count == 0 {
		return report.Cell{}, false
	}
	return report.DurationCell(of(p)), true
}

func (r Report) intro(set *results.Set[Result]) string {
	warmup := ""
	if c := r.config(); c.Warmup > 0 {
		warmup = fmt.Sprintf(" Its first %v was a warm-up, whose rates and latencies are apart and not in the run's.", c.Warmup)
	}
	checked := "Every point read is checked against the model of what was committed, expired, late and churned."
	if r.config().imported() {
		checked = "Every point read is checked by its key and encoding; the final check, each series' count and sum of digests against the file's."
	}
	return "Steady state: " + r.config().describe() + "." + warmup + "\n" +
		"Write latency per batch from its intended start on the schedule (coordinated omission corrected); query latency per query, checking excluded. " +
		checked + "\n" +
		"Best of each row marked *; sizes in binary units." + set.RepeatNote()
}

// Page lays the report out for every format (report.Write); the HTML
// form charts the figures over time.
func (r Report) Page() report.Page {
	set := r.set()
	engines := set.Engines()
	// cells are a figure of each engine, the median of its runs that
	// have it.
	cells := func(get func(*Result) (report.Cell, bool)) []report.Cell {
		return set.Cells(func(res *Result) (report.Cell, bool, string) {
			c, ok := get(res)
			return c, ok, ""
		})
	}
	t := report.Table{Head: report.Head(engines, "Metric"), Labels: 1}
	row := func(name string, best report.Better, get func(*Result) (report.Cell, bool)) {
		t.Rows = append(t.Rows, report.Row{Labels: []string{name}, Best: best, Cells: cells(get)})
	}
	// A figure of a run that measured nothing (an engine that failed to
	// open) is "-", not 0.
	always := func(f func(*Result) report.Cell) func(*Result) (report.Cell, bool) {
		return func(res *Result) (report.Cell, bool) { return f(res), res.Elapsed > 0 }
	}
	if slices.ContainsFunc(set.All, func(res *Result) bool { return res.Search != nil }) {
		row("sustained rate", report.HigherBest, func(res *Result) (report.Cell, bool) {
			if res.Search == nil {
				return report.Cell{}, false
			}
			return report.RateCell(res.Search.Rate), true
		})
		t.Rows = append(t.Rows, report.Row{Labels: []string{"limited by"}, Cells: set.Texts(func(res *Result) string {
			if res.Search == nil {
				return ""
			}
			return res.Search.Limit
		})}, report.Row{Labels: []string{"probes (points/s: limit)"}, Cells: set.Texts(func(res *Result) string {
			if res.Search == nil {
				return ""
			}
			var ps []string
			for _, p := range res.Search.Probes {
				ps = append(ps, report.Rate(p.Rate)+": "+cmp.Or(p.Limit, "ok"))
			}
			return strings.Join(ps, ", ")
		})})
	}
	row("ingest points/s", report.HigherBest, always(func(res *Result) report.Cell { return report.RateCell(res.PointsPerSec) }))
	row("unsent points", report.LowerBest, always(func(res *Result) report.Cell { return report.CountCell(res.Unsent) }))
	for _, p := range []struct {
		name string
		of   func(*measure.Percentiles) time.Duration
	}{{"p50", func(p *measure.Percentiles) time.Duration { return p.P50 }}, {"p99", func(p *measure.Percentiles) time.Duration { return p.P99 }}, {"max", func(p *measure.Percentiles) time.Duration { return p.Max }}} {
		row("write "+p.name, report.LowerBest, func(res *Result) (report.Cell, bool) { return latencyCell(res.Write, p.of) })
	}
	for _, m := range results.PercentileMetrics(r.config().Percentiles, func(res *Result) map[string]time.Duration { return res.WriteDetail.Percentiles }) {
		row("write "+m.Name, m.Best, func(res *Result) (report.Cell, bool) { return m.Get(res), res.Write != nil })
	}
	for _, p := range []struct {
		name string
		of   func(*measure.Percentiles) time.Duration
	}{{"p50", func(p *measure.Percentiles) time.Duration { return p.P50 }}, {"p99", func(p *measure.Percentiles) time.Duration { return p.P99 }}, {"max", func(p *measure.Percentiles) time.Duration { return p.Max }}} {
		row("query "+p.name, report.LowerBest, func(res *Result) (report.Cell, bool) { return latencyCell(res.Query, p.of) })
	}
	row("queries/s", report.HigherBest, always(func(res *Result) report.Cell {
		var n float64
		for _, q := range res.Queries {
			n += q.PerSec
		}
		return report.RateCell(n)
	}))
	row("wrong answers", report.LowerBest, always(func(res *Result) report.Cell { return report.CountCell(res.WrongAnswers()) }))
	row("disk at end", report.LowerBest, always(func(res *Result) report.Cell { return report.BytesCell(res.Disk.Used) }))
	row("bytes/point at end", report.LowerBest, func(res *Result) (report.Cell, bool) {
		return results.BytesPerPointCell(res.BytesPerPoint), res.BytesPerPoint > 0
	})
	row("disk last third: mean", report.LowerBest, func(res *Result) (report.Cell, bool) {
		if res.DiskTail == nil {
			return report.Cell{}, false
		}
		return report.BytesCell(int64(res.DiskTail.Mean)), true
	})
	row("disk last third: max off mean", report.LowerBest, func(res *Result) (report.Cell, bool) {
		if res.DiskTail == nil {
			return report.Cell{}, false
		}
		return report.NumberCell(100*res.DiskTail.Deviation, func(v float64) string { return fmt.Sprintf("%.1f%%", v) }), true
	})
	row("space amplification", report.LowerBest, always(func(res *Result) report.Cell { return report.Sig3Cell(res.SpaceAmp) }))
	row("write amplification", report.LowerBest, always(func(res *Result) report.Cell { return report.Sig3Cell(res.WriteAmp) }))
	row("retention behind", report.LowerBest, always(func(res *Result) report.Cell { return report.DurationCell(res.RetentionLag) }))
	row("retention passes", report.NoBest, always(func(res *Result) report.Cell { return report.CountCell(res.Retention.Passes) }))
	row("retention pass p99", report.LowerBest, func(res *Result) (report.Cell, bool) {
		return latencyCell(res.Retention.Latency, func(p *measure.Percentiles) time.Duration { return p.P99 })
	})
	if slices.ContainsFunc(set.All, func(res *Result) bool { return res.Config.Method == MethodTTL }) {
		// The engine's expiry drops points some time after the cutoff.
		row("expired points still held", report.NoBest, func(res *Result) (report.Cell, bool) {
			return report.CountCell(res.Retention.Lingering), res.Config.Method == MethodTTL && res.Final != nil
		})
	}
	row("peak RSS", report.LowerBest, always(func(res *Result) report.Cell { return report.PeakRSSCell(res.Cost.PeakRSS) }))
	t.Rows = append(t.Rows, set.Rows(results.MemoryMetrics(func(res *Result) *measure.MemoryPeaks { return res.Cost.Memory })...)...)
	row("CPU user+sys", report.LowerBest, always(func(res *Result) report.Cell { return report.DurationCell(res.Cost.CPUUser + res.Cost.CPUSys) }))
	for _, name := range []string{engine.MetricStalls, engine.MetricStallTime, engine.MetricCompactBytes} {
		row(name, report.LowerBest, func(res *Result) (report.Cell, bool) {
			v, ok := res.EngineMetrics[name]
			return report.MetricCell(name, v), ok
		})
	}
	status := report.StatusRow(engines)
	t.Rows = append(t.Rows, status)

	queries := report.Table{Title: "Queries (latency per query; every point checked)", Head: report.Head(engines, "Kind", "Metric"), Labels: 2}
	for _, kind := range queryKinds(set) {
		q := func(res *Result) *Query {
			for i := range res.Queries {
				if res.Queries[i].Kind == kind {
					return &res.Queries[i]
				}
			}
			return nil
		}
		queries.Rows = append(queries.Rows,
			report.Row{Labels: []string{kind, "per s"}, Best: report.HigherBest, Cells: cells(func(res *Result) (report.Cell, bool) {
				if x := q(res); x != nil {
					return report.RateCell(x.PerSec), true
				}
				return report.Cell{}, false
			})},
			report.Row{Labels: []string{"", "p99"}, Best: report.LowerBest, Cells: cells(func(res *Result) (report.Cell, bool) {
				if x := q(res); x != nil {
					return latencyCell(x.Latency, func(p *measure.Percentiles) time.Duration { return p.P99 })
				}
				return report.Cell{}, false
			})},
		)
		for _, m := range results.PercentileMetrics(r.config().Percentiles, func(x *Query) map[string]time.Duration { return x.Percentiles }) {
			queries.Rows = append(queries.Rows, report.Row{Labels: []string{"", m.Name}, Best: m.Best, Cells: cells(func(res *Result) (report.Cell, bool) {
				if x := q(res); x != nil {
					return m.Get(x), true
				}
				return report.Cell{}, false
			})})
		}
		queries.Rows = append(queries.Rows,
			report.Row{Labels: []string{"", "checked"}, Cells: cells(func(res *Result) (report.Cell, bool) {
				if x := q(res); x != nil {
					return results.VerifyCell(&x.Verify, "points"), true
				}
				return report.Cell{}, false
			})})
	}
	queries.Rows = append(queries.Rows, report.Row{Labels: []string{"final check", ""}, Cells: cells(func(res *Result) (report.Cell, bool) {
		return results.VerifyCell(res.Final, "points"), res.Final != nil
	})})
	tables := []report.Table{t}
	if len(queries.Rows) > 1 || r.config().Readers > 0 {
		tables = append(tables, queries)
	}
	if r.config().Warmup > 0 {
		tables = append(tables, r.warmupTable(set))
	}
	return set.Page("Steady state", r.intro(set), r.Env.Lines(), tables, r.charts(set))
}

// warmupTable is the warm-up's rates and latencies (Result.Warmup), as
// the main and queries tables show the run's.
func (r Report) warmupTable(set *results.Set[Result]) report.Table {
	t := report.Table{Title: fmt.Sprintf("Warm-up (the first %v, its rates and latencies excluded from the tables above)", r.config().Warmup), Head: report.Head(set.Engines(), "Metric"), Labels: 1}
	row := func(name string, best report.Better, get func(*Warmup) (report.Cell, bool)) {
		t.Rows = append(t.Rows, report.Row{Labels: []string{name}, Best: best, Cells: set.Cells(func(res *Result) (report.Cell, bool, string) {
			if res.Warmup == nil {
				return report.Cell{}, false, ""
			}
			c, ok := get(res.Warmup)
			return c, ok, ""
		})})
	}
	row("ingest points/s", report.HigherBest, func(w *Warmup) (report.Cell, bool) { return report.RateCell(w.PointsPerSec), true })
	for _, p := range report.Percentiles() {
		row("write "+p.Name, report.LowerBest, func(w *Warmup) (report.Cell, bool) { return p.Cell(w.Write), w.Write != nil })
	}
	for _, m := range results.PercentileMetrics(r.config().Percentiles, func(w *Warmup) map[string]time.Duration { return w.WriteDetail.Percentiles }) {
		row("write "+m.Name, m.Best, func(w *Warmup) (report.Cell, bool) { return m.Get(w), w.Write != nil })
	}
	for _, kind := range queryKinds(set) {
		q := func(w *Warmup) *Query {
			for i := range w.Queries {
				if w.Queries[i].Kind == kind {
					return &w.Queries[i]
				}
			}
			return nil
		}
		row(kind+" per s", report.HigherBest, func(w *Warmup) (report.Cell, bool) {
			if x := q(w); x != nil {
				return report.RateCell(x.PerSec), true
			}
			return report.Cell{}, false
		})
		row(kind+" p99", report.LowerBest, func(w *Warmup) (report.Cell, bool) {
			if x := q(w); x != nil {
				return latencyCell(x.Latency, func(p *measure.Percentiles) time.Duration { return p.P99 })
			}
			return report.Cell{}, false
		})
		for _, m := range results.PercentileMetrics(r.config().Percentiles, func(x *Query) map[string]time.Duration { return x.Percentiles }) {
			row(kind+" "+m.Name, m.Best, func(w *Warmup) (report.Cell, bool) {
				if x := q(w); x != nil {
					return m.Get(x), true
				}
				return report.Cell{}, false
			})
		}
	}
	return t
}

// queryKinds are the query kinds any engine ran, in the order they first
// appear.
func queryKinds(set *results.Set[Result]) []string {
	var out []string
	for _, res := range set.All {
		for _, q := range res.Queries {
			if !slices.Contains(out, q.Kind) {
				out = append(out, q.Kind)
			}
		}
	}
	return out
}

// maxCells is how many points a line of a chart has at most: a longer
// run is drawn in cells of several intervals.
const maxCells = 240

// chartFigure is one over-time chart: how to draw one value of a cell of
// intervals.
type chartFigure struct {
	title, note, unit string
	format            func(float64) string
	get               func([]Interval) (float64, bool)
}

// charts are the figures over time, a line per engine (the median of
// its runs), a ring where the engine reported a write stall, and the
// bytes per point at the end.
func (r Report) charts(set *results.Set[Result]) []report.Chart {
	// A cell holds the intervals that began in it.
	last, found := time.Duration(0), false
	for _, res := range set.All {
		if n := len(res.Intervals); n > 0 {
			last, found = max(last, res.Intervals[n-1].Start), true
		}
	}
	if !found {
		return nil
	}
	cell := cmp.Or(r.config().Interval, DefaultInterval)
	for last >= cell*maxCells {
		cell *= 2
	}
	cells := int(last/cell) + 1
	worst := func(f func(Interval) (time.Duration, bool)) func([]Interval) (float64, bool) {
		return func(ivs []Interval) (float64, bool) {
			var v time.Duration
			ok := false
			for _, iv := range ivs {
				if d, has := f(iv); has {
					v, ok = max(v, d), true
				}
			}
			return float64(v), ok
		}
	}
	lastOf := func(f func(Interval) float64) func([]Interval) (float64, bool) {
		return func(ivs []Interval) (float64, bool) {
			if len(ivs) == 0 {
				return 0, false
			}
			return f(ivs[len(ivs)-1]), true
		}
	}
	p := func(get func(Interval) *measure.Percentiles, of func(*measure.Percentiles) time.Duration) func(Interval) (time.Duration, bool) {
		return func(iv Interval) (time.Duration, bool) {
			if l := get(iv); l != nil {
				return of(l), true
			}
			return 0, false
		}
	}
	write := func(iv Interval) *measure.Percentiles { return iv.Write }
	query := func(iv Interval) *measure.Percentiles { return iv.Query }
	p50 := func(l *measure.Percentiles) time.Duration { return l.P50 }
	p99 := func(l *measure.Percentiles) time.Duration { return l.P99 }
	pmax := func(l *measure.Percentiles) time.Duration { return l.Max }
	figures := []chartFigure{
		{"Ingest rate", "Points committed per second of wall time. Higher is better; the schedule's rate is the ceiling.", "points/s", report.Rate, func(ivs []Interval) (float64, bool) {
			var n int64
			var l time.Duration
			for _, iv := range ivs {
				n, l = n+iv.Points, l+iv.Length
			}
			return float64(n) / l.Seconds(), l > 0
		}},
		{"Write p50", "Per batch, from its intended start. Lower is better.", "ns", report.FormatDuration, worst(p(write, p50))},
		{"Write p99", "Per batch, from its intended start; the highest interval's in each cell. Lower is better.", "ns", report.FormatDuration, worst(p(write, p99))},
		{"Write max", "Per batch, from its intended start. Lower is better.", "ns", report.FormatDuration, worst(p(write, pmax))},
		{"Query p50", "Per query, every kind. Lower is better.", "ns", report.FormatDuration, worst(p(query, p50))},
		{"Query p99", "Per query, every kind; the highest interval's in each cell. Lower is better.", "ns", report.FormatDuration, worst(p(query, p99))},
		{"Query max", "Per query, every kind. Lower is better.", "ns", report.FormatDuration, worst(p(query, pmax))},
		{"Backlog", "Points the schedule had asked for and were not committed. Flat and low is an engine that keeps the rate.", "count", report.FormatCount, lastOf(func(iv Interval) float64 { return float64(iv.Backlog) })},
		{"Disk used", "The engine's directory at each cell's end. Flat once retention runs is an engine that reclaims space as fast as it ingests.", "bytes", report.FormatBytes, lastOf(func(iv Interval) float64 { return float64(iv.DiskUsed) })},
		{"Space amplification", "Disk used over the key and value bytes live. Lower is better.", "", report.Sig3, lastOf(func(iv Interval) float64 { return iv.SpaceAmp })},
		{"Write amplification", "Bytes the process wrote to storage since the start over the key and value bytes committed. Lower is better.", "", report.Sig3, lastOf(func(iv Interval) float64 { return iv.WriteAmp })},
		{"RSS", "The process's resident memory, engine and harness.", "bytes", report.FormatBytes, lastOf(func(iv Interval) float64 { return float64(iv.RSS) })},
		{"Compaction bytes", "What the engine's compactions and flushes wrote in each cell (engine.ReadMetrics).", "bytes", report.FormatBytes, func(ivs []Interval) (float64, bool) {
			var n int64
			ok := false
			for _, iv := range ivs {
				if v, has := iv.EngineMetrics[engine.MetricCompactBytes]; has {
					n, ok = n+v, true
				}
			}
			return float64(n), ok
		}},
	}
	var out []report.Chart
	for _, f := range figures {
		c := set.Chart(report.Chart{Title: f.title, Note: f.note + " Rings mark cells in which the engine reported a write stall.", Kind: report.Lines, Format: f.format, Unit: f.unit},
			results.CellLabels(cell, cells), func(i int, res *Result) results.Value {
				in, stalled := results.InCell(res.Intervals, func(iv Interval) time.Duration { return iv.Start }, cell, i)
				v, ok := f.get(in)
				return results.Value{V: v, OK: ok && len(in) > 0, Failed: res.Error != "", Mark: stalled}
			})
		if results.Drawn(c) {
			out = append(out, c)
		}
	}
	// Intervals count no live points, so this one is the run's end alone.
	size := set.BytesPerPointChart(func(res *Result) (float64, bool) { return res.BytesPerPoint, res.Error != "" })
	if results.Drawn(size) {
		out = append(out, size)
	}
	return out
}
