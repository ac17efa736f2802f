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
)

// Report is the results of one or more engines on the same steady-state
// workload, with the machine they ran on; an engine run several times
// (-count) has one Result per run, and the tables show medians.
type Report struct {
	RunID   string              `json:"run_id,omitempty"`
	Env     harness.Environment `json:"environment"`
	Results []*Result           `json:"results"`
}

// String renders the report for a terminal.
func (r Report) String() string { return r.page().Text() }

// Markdown renders it as GitHub-flavored Markdown.
func (r Report) Markdown() string { return r.page().Markdown() }

// HTML renders it as one page with the figures over time as charts.
func (r Report) HTML() string { return r.page().HTML() }

// WriteJSON writes every figure of every run, intervals included.
func (r Report) WriteJSON(w io.Writer) error { return report.WriteJSON(w, r) }

// WriteCSV writes the report in long form (report.CSV): environment
// rows, then per run a "run" part with every figure but the intervals,
// named by its JSON path, and a part per interval ("interval.0", ...).
func (r Report) WriteCSV(w io.Writer) error {
	c := report.NewCSV(w, "part", r.RunID, r.Env.Start)
	c.Put("", 0, "environment", report.TextFigures(r.Env.Metrics()))
	for _, res := range r.results() {
		rep := max(res.Repeat, 1)
		whole := *res
		whole.Intervals = nil
		c.Put(res.Engine, rep, "run", report.Flatten("", whole))
		for i, iv := range res.Intervals {
			c.Put(res.Engine, rep, "interval."+strconv.Itoa(i), report.Flatten("", iv))
		}
	}
	return c.Flush()
}

func (r Report) results() []*Result {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res *Result) bool { return res == nil })
}

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

func (r Report) config() Config {
	for _, res := range r.results() {
		if res.Config.Duration > 0 {
			return res.Config
		}
	}
	return Config{}
}

func (r Report) engines() []report.Engine {
	var out []report.Engine
	for _, g := range r.groups() {
		out = append(out, report.Engine{Name: g.engine, Error: g.err()})
	}
	return out
}

// cells are a figure of each engine, the median of its runs that have
// it.
func (r Report) cells(get func(*Result) (report.Cell, bool)) []report.Cell {
	var out []report.Cell
	for _, g := range r.groups() {
		var cs []report.Cell
		for _, res := range g.runs {
			if c, ok := get(res); ok {
				cs = append(cs, report.Judge(c, "", res.Error))
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

func latencyCell(p *measure.Percentiles, of func(*measure.Percentiles) time.Duration) (report.Cell, bool) {
	if p == nil || p.Count == 0 {
		return report.Cell{}, false
	}
	return report.DurationCell(of(p)), true
}

func (r Report) intro() string {
	var runs int
	for _, g := range r.groups() {
		runs = max(runs, len(g.runs))
	}
	return "Steady state: " + r.config().describe() + ".\n" +
		"Write latency per batch from its intended start on the schedule (coordinated omission corrected); query latency per query, checking excluded. " +
		"Every point read is checked against the model of what was committed, expired, late and churned.\n" +
		"Best of each row marked *; sizes in binary units." + report.RepeatNote(runs)
}

func (r Report) page() report.Page {
	engines := r.engines()
	t := report.Table{Head: report.Head(engines, "Metric"), Labels: 1}
	row := func(name string, best report.Better, get func(*Result) (report.Cell, bool)) {
		t.Rows = append(t.Rows, report.Row{Labels: []string{name}, Best: best, Cells: r.cells(get)})
	}
	always := func(f func(*Result) report.Cell) func(*Result) (report.Cell, bool) {
		return func(res *Result) (report.Cell, bool) { return f(res), res.Config.Duration > 0 }
	}
	if r.searched() {
		row("sustained rate", report.HigherBest, func(res *Result) (report.Cell, bool) {
			if res.Search == nil {
				return report.Cell{}, false
			}
			return report.RateCell(res.Search.Rate), true
		})
		t.Rows = append(t.Rows, report.Row{Labels: []string{"limited by"}, Cells: r.texts(func(res *Result) string {
			if res.Search == nil {
				return ""
			}
			return res.Search.Limit
		})}, report.Row{Labels: []string{"probes (points/s: limit)"}, Cells: r.texts(func(res *Result) string {
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
	row("peak RSS", report.LowerBest, always(func(res *Result) report.Cell { return report.PeakRSSCell(res.Cost.PeakRSS) }))
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
	for _, kind := range r.kinds() {
		q := func(res *Result) *Query {
			for i := range res.Queries {
				if res.Queries[i].Kind == kind {
					return &res.Queries[i]
				}
			}
			return nil
		}
		queries.Rows = append(queries.Rows,
			report.Row{Labels: []string{kind, "per s"}, Best: report.HigherBest, Cells: r.cells(func(res *Result) (report.Cell, bool) {
				if x := q(res); x != nil {
					return report.RateCell(x.PerSec), true
				}
				return report.Cell{}, false
			})},
			report.Row{Labels: []string{"", "p99"}, Best: report.LowerBest, Cells: r.cells(func(res *Result) (report.Cell, bool) {
				if x := q(res); x != nil {
					return latencyCell(x.Latency, func(p *measure.Percentiles) time.Duration { return p.P99 })
				}
				return report.Cell{}, false
			})},
			report.Row{Labels: []string{"", "checked"}, Cells: r.cells(func(res *Result) (report.Cell, bool) {
				if x := q(res); x != nil {
					return verifyCell(&x.Verify), true
				}
				return report.Cell{}, false
			})})
	}
	queries.Rows = append(queries.Rows, report.Row{Labels: []string{"final check", ""}, Cells: r.cells(func(res *Result) (report.Cell, bool) {
		return verifyCell(res.Final), res.Final != nil
	})})
	tables := []report.Table{t}
	if len(queries.Rows) > 1 || r.config().Readers > 0 {
		tables = append(tables, queries)
	}
	var names []string
	for _, e := range engines {
		names = append(names, e.Name)
	}
	return report.Page{
		Title: "Steady state: " + strings.Join(names, ", "), Intro: r.intro(),
		Engines: engines, Tables: tables, Environment: r.Env.Lines(), Charts: r.charts(),
	}
}

// searched reports whether any run searched its rate.
func (r Report) searched() bool {
	return slices.ContainsFunc(r.results(), func(res *Result) bool { return res.Search != nil })
}

// texts is a text of each engine: its runs', joined by " / " when they
// differ.
func (r Report) texts(get func(*Result) string) []report.Cell {
	var out []report.Cell
	for _, g := range r.groups() {
		var ts []string
		for _, res := range g.runs {
			if t := get(res); t != "" && !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
		if len(ts) == 0 {
			out = append(out, report.None)
			continue
		}
		out = append(out, report.Cell{Text: strings.Join(ts, " / ")})
	}
	return out
}

func (r Report) kinds() []string {
	var out []string
	for _, res := range r.results() {
		for _, q := range res.Queries {
			if !slices.Contains(out, q.Kind) {
				out = append(out, q.Kind)
			}
		}
	}
	return out
}

func verifyCell(v *Verification) report.Cell {
	if v == nil {
		return report.None
	}
	if v.OK() {
		return report.Cell{Text: "ok, " + report.FormatCount(float64(v.Read)) + " points"}
	}
	return report.Cell{Text: fmt.Sprintf("%d missing, %d wrong, %d expired of %s read", v.Missing, v.Wrong, v.Expired, report.FormatCount(float64(v.Read))), Failed: true}
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
// its runs), a ring where the engine reported a write stall.
func (r Report) charts() []report.Chart {
	// A cell holds the intervals that began in it.
	last, found := time.Duration(0), false
	for _, res := range r.results() {
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
		c := report.Chart{Title: f.title, Note: f.note + " Rings mark cells in which the engine reported a write stall.", Kind: report.Lines, Format: f.format, Unit: f.unit}
		for i := range cells {
			c.Groups = append(c.Groups, report.Duration(time.Duration(i)*cell))
		}
		drawn := false
		for _, g := range r.groups() {
			s := report.ChartSeries{Name: g.engine}
			for i := range cells {
				pt := g.cellPoint(cell, i, f.get)
				drawn = drawn || pt.N > 0
				s.Points = append(s.Points, pt)
			}
			c.Series = append(c.Series, s)
		}
		if drawn {
			out = append(out, c)
		}
	}
	return out
}

// cellPoint is a figure of the intervals that began in cell i, over the
// engine's runs, ringed if any of them stalled.
func (g group) cellPoint(cell time.Duration, i int, get func([]Interval) (float64, bool)) report.Point {
	var vs []float64
	var p report.Point
	lo, hi := time.Duration(i)*cell, time.Duration(i+1)*cell
	for _, res := range g.runs {
		var in []Interval
		for _, iv := range res.Intervals {
			if iv.Start >= lo && iv.Start < hi {
				in = append(in, iv)
				p.Mark = p.Mark || iv.Stalled()
			}
		}
		if v, ok := get(in); ok && len(in) > 0 {
			vs = append(vs, v)
			p.Failed = p.Failed || res.Error != ""
		}
	}
	p.Stats = report.Summarize(vs)
	return p
}
