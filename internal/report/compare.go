package report

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// Side is one of the two reports compare reads.
type Side struct {
	Name    string // the file it came from
	RunID   string
	Start   string
	Command string
	Samples []Samples
}

// CompareMetric is a figure compare shows, with a title for its table.
type CompareMetric struct {
	Metric string // JSON path, as in Figure
	Title  string
}

// Compare lays out old and new side by side: for each metric a table
// with a row per engine and part (step or benchmark) that either side
// has, giving the old and new median with their spread, the change in
// percent, and whether the change is beyond the noise. That takes at
// least three runs a side (-count 3), then a Mann-Whitney U test as
// benchstat does: the change counts when p < alpha. With fewer runs the
// change is shown but not judged. A chart per metric shows the changes.
// The intro's first line says how many figures moved beyond the noise and
// which. Brief keeps only those rows, or, when none did, the
// briefRows largest changes.
func Compare(old, new Side, metrics []CompareMetric, alpha float64, brief bool) Page {
	p := Page{
		Title: "Comparison: " + filepath.Base(old.Name) + " → " + filepath.Base(new.Name),
		Intro: fmt.Sprintf("old: %s, run %s started %s\nnew: %s, run %s started %s\n"+
			"change = (new - old) / old of the medians; ± is each side's spread (the larger distance from the median to its min or max).\n"+
			"beyond noise: a Mann-Whitney U test (as benchstat) with at least %d runs a side says the runs differ at p < %g; "+
			"with 3 runs a side p is never below 0.1, so run 4 or more (-count) to see a difference at 0.05.",
			old.Name, OrDash(old.RunID), OrDash(old.Start), new.Name, OrDash(new.RunID), OrDash(new.Start), minTestRuns, alpha),
		Environment: [][2]string{{"Old command", old.Command}, {"New command", new.Command}},
	}
	type key struct{ engine, part, metric string }
	index := func(ss []Samples) map[key]Samples {
		m := map[key]Samples{}
		for _, s := range ss {
			m[key{s.Engine, s.Part, s.Metric}] = s
		}
		return m
	}
	oldIx, newIx := index(old.Samples), index(new.Samples)
	// Rows in the order of old's samples, then those only new has.
	var rows []Samples
	seen := map[key]bool{}
	for _, s := range slices.Concat(old.Samples, new.Samples) {
		k := key{s.Engine, s.Part, s.Metric}
		if !seen[k] {
			seen[k] = true
			rows = append(rows, s)
		}
	}
	var engines []string
	for _, s := range rows {
		if !slices.Contains(engines, s.Engine) {
			engines = append(engines, s.Engine)
		}
		if !slices.ContainsFunc(p.Engines, func(e Engine) bool { return e.Name == s.Engine }) {
			p.Engines = append(p.Engines, Engine{Name: s.Engine})
		}
	}
	// Every compared row, to sum up and to pick the brief page's rows.
	type compared struct {
		table, row int
		engine     string
		what       string // "pebble Write 1M values time"
		change     float64
		beyond     bool
		tested     bool
	}
	var all []compared
	for _, m := range metrics {
		t := Table{Title: m.Title + " (" + m.Metric + ")", Head: []string{"Engine", "Step", "old", "new", "change", "beyond noise?"}, Labels: 2}
		chart := Chart{Title: "Change in " + m.Title, Note: "New over old, in percent; pale bars are within the noise or not tested.",
			Kind: Bars, Format: percent, Linear: true}
		var parts []string
		prevPart := map[string]string{} // each engine's last charted part
		changes := map[[2]string]Point{}
		lastEngine := ""
		for _, s := range rows {
			if s.Metric != m.Metric {
				continue
			}
			k := key{s.Engine, s.Part, s.Metric}
			o, n := oldIx[k], newIx[k]
			f := UnitFormat(s.Unit)
			so, sn := Summarize(o.Values), Summarize(n.Values)
			engine := s.Engine
			if engine == lastEngine {
				engine = ""
			}
			lastEngine = s.Engine
			row := Row{Labels: []string{engine, s.Label}, Cells: []Cell{statsCell(so, f), statsCell(sn, f), None, None}}
			if so.N > 0 && sn.N > 0 && so.Median != 0 {
				change := (sn.Median - so.Median) / math.Abs(so.Median) * 100
				row.Cells[2] = Cell{Text: fmt.Sprintf("%+.1f%%", change)}
				verdict, beyond := judge(o.Values, n.Values, alpha)
				row.Cells[3] = Cell{Text: verdict}
				parts = insertPart(parts, s.Label, prevPart[s.Engine])
				prevPart[s.Engine] = s.Label
				changes[[2]string{s.Engine, s.Label}] = Point{Stats: Stats{N: 1, Median: change, Min: change, Max: change}, Faint: !beyond}
				tested := len(o.Values) >= minTestRuns && len(n.Values) >= minTestRuns
				all = append(all, compared{len(p.Tables), len(t.Rows), s.Engine, s.Engine + " " + s.Label + " " + m.Title, change, beyond, tested})
			}
			t.Rows = append(t.Rows, row)
		}
		if len(t.Rows) == 0 {
			continue
		}
		p.Tables = append(p.Tables, t)
		chart.Groups = parts
		for _, e := range engines {
			se := ChartSeries{Name: e}
			for _, part := range parts {
				se.Points = append(se.Points, changes[[2]string{e, part}])
			}
			chart.Series = append(chart.Series, se)
		}
		moved := false
		for _, c := range changes {
			moved = moved || c.Median != 0
		}
		if moved {
			p.Charts = append(p.Charts, chart)
		}
	}
	moved := slices.DeleteFunc(slices.Clone(all), func(c compared) bool { return !c.beyond })
	var names []string
	for _, c := range moved[:min(len(moved), 5)] {
		names = append(names, fmt.Sprintf("%s %+.1f%%", c.what, c.change))
	}
	summary := fmt.Sprintf("Beyond the noise: %d of %d figures", len(moved), len(all))
	switch {
	case len(all) == 0:
		summary = "No figure is in both reports to compare (a run that failed or was stopped has none)"
	case len(moved) > 5:
		summary += ": " + strings.Join(names, ", ") + fmt.Sprintf(" and %d more", len(moved)-5)
	case len(moved) > 0:
		summary += ": " + strings.Join(names, ", ")
	case !slices.ContainsFunc(all, func(c compared) bool { return c.tested }):
		summary += fmt.Sprintf(", none tested: a change is tested with %d or more runs a side (-count)", minTestRuns)
	}
	p.Intro = summary + ".\n" + p.Intro
	if !brief || len(all) == 0 {
		return p
	}
	keep := moved
	if len(keep) == 0 {
		// Nothing tested or nothing moved: the largest changes, to look at.
		keep = slices.SortedFunc(slices.Values(all), func(a, b compared) int { return cmp.Compare(math.Abs(b.change), math.Abs(a.change)) })
		keep = keep[:min(len(keep), briefRows)]
		p.Intro += fmt.Sprintf("\nBrief: the %d largest changes (-v for all %d figures).", len(keep), len(all))
	} else {
		p.Intro += fmt.Sprintf("\nBrief: the figures beyond the noise (-v for all %d).", len(all))
	}
	// Each kept row names its engine: the full table names it on an
	// engine's first row only.
	kept := map[[2]int]string{}
	for _, c := range keep {
		kept[[2]int{c.table, c.row}] = c.engine
	}
	var tables []Table
	for i, t := range p.Tables {
		var rows []Row
		for j, r := range t.Rows {
			if engine, ok := kept[[2]int{i, j}]; ok {
				r.Labels = slices.Clone(r.Labels)
				r.Labels[0] = engine
				rows = append(rows, r)
			}
		}
		if len(rows) > 0 {
			t.Rows = rows
			tables = append(tables, t)
		}
	}
	p.Tables = tables
	return p
}

// briefRows is how many of the largest changes a brief comparison shows
// when none is beyond the noise.
const briefRows = 12

// insertPart adds part to parts, if missing, right after after ("" for
// the start), so that the chart's groups keep the parts' order even when
// an engine lacks some.
func insertPart(parts []string, part, after string) []string {
	if slices.Contains(parts, part) {
		return parts
	}
	return slices.Insert(parts, slices.Index(parts, after)+1, part)
}

// percent shows a change: +12.3%, -0.5%.
func percent(v float64) string {
	sign := "+"
	if v < 0 {
		sign = "-"
	}
	return sign + Sig3(math.Abs(v)) + "%"
}

// minTestRuns is the fewest runs a side compare tests a change with.
const minTestRuns = 3

// judge says whether new differs from old beyond the noise: "yes" or
// "no" with the U test's p-value and the runs, or why it was not tested.
func judge(old, new []float64, alpha float64) (string, bool) {
	n := fmt.Sprintf("n=%d+%d", len(old), len(new))
	if len(old) < minTestRuns || len(new) < minTestRuns {
		return fmt.Sprintf("untested (%s; need %d+%d)", n, minTestRuns, minTestRuns), false
	}
	p := UTest(old, new)
	if p < alpha {
		return fmt.Sprintf("yes (p=%.3f %s)", p, n), true
	}
	return fmt.Sprintf("no (p=%.3f %s)", p, n), false
}

// statsCell shows a median with its spread, "-" for no runs.
func statsCell(s Stats, f func(float64) string) Cell {
	if s.N == 0 {
		return None
	}
	text := f(s.Median)
	if s.N > 1 && s.Min != s.Max {
		if sp := s.Spread(); math.IsInf(sp, 1) {
			text += " (" + f(s.Min) + "–" + f(s.Max) + ")"
		} else {
			text += fmt.Sprintf(" ±%.0f%%", sp*100)
		}
	}
	return Cell{Text: text, Value: s.Median, Stats: s, format: f}
}

// OrDash is s, or "-" for "": a fact a report does not know.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
