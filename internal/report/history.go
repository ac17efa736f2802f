package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Release is one release of an engine with the figures of its runs: a
// column of a history.
type Release struct {
	Engine  string // without its release: "rocksdb"
	Version string // as read from its loaded library: "10.0.1"
	// Samples are the figures of each part over the release's runs,
	// pooled from every report that holds some.
	Samples []Samples
}

// historyMaxNamed is how many changes beyond the noise the intro names.
const historyMaxNamed = 5

// History lays releases of engines side by side, each engine's ordered by
// version (CompareVersions). Per part (a step or benchmark) a chart, with
// a panel per metric when there are several, puts the releases along the
// x axis: each run a dot beside the line through the medians, the min-max
// whisker, and a ring on a release whose runs differ from those of the
// engine's release before it beyond the noise, as compare judges a change
// (a Mann-Whitney U test, p < alpha, with at least minTestRuns runs a
// side), when the change is also an effect (effect: at least minEffect
// percent, and visible in the figures as shown). A table per engine holds
// each part's metrics, median and spread per release, and under each a
// row of the change from the release before, marked * beyond the noise
// and ? when it is not tested.
func History(releases []Release, metrics []CompareMetric, alpha, minEffect float64) Page {
	rs := slices.Clone(releases)
	slices.SortStableFunc(rs, func(a, b Release) int {
		return cmp.Or(cmp.Compare(a.Engine, b.Engine), CompareVersions(a.Version, b.Version))
	})
	var engines []string
	for _, r := range rs {
		if !slices.Contains(engines, r.Engine) {
			engines = append(engines, r.Engine)
		}
	}
	label := func(r Release) string {
		if len(engines) == 1 {
			return r.Version
		}
		return r.Engine + " " + r.Version
	}
	var groups []string
	for _, r := range rs {
		groups = append(groups, label(r))
	}
	// The parts in the order the reports list them, with their labels.
	type key struct{ part, metric string }
	var parts []Samples
	values := make([]map[key][]float64, len(rs))
	units := map[string]string{}
	for i, r := range rs {
		values[i] = map[key][]float64{}
		for _, s := range r.Samples {
			if !slices.ContainsFunc(parts, func(p Samples) bool { return p.Part == s.Part }) {
				parts = append(parts, s)
			}
			k := key{s.Part, s.Metric}
			values[i][k] = append(values[i][k], s.Values...)
			units[s.Metric] = s.Unit
		}
	}
	p := Page{}
	var spans []string // each engine's first and last release
	for _, e := range engines {
		p.Engines = append(p.Engines, Engine{Name: e})
		var versions []string
		for _, r := range rs {
			if r.Engine == e {
				versions = append(versions, r.Version)
			}
		}
		span := e + " " + versions[0]
		if len(versions) > 1 {
			span += " → " + versions[len(versions)-1]
		}
		spans = append(spans, span)
	}
	p.Title = "History: " + strings.Join(spans, ", ")
	tables := make([]Table, len(engines))
	for ei, e := range engines {
		tables[ei] = Table{Title: e, Head: []string{"Step", "Figure"}, Labels: 2}
		for _, r := range rs {
			if r.Engine == e {
				tables[ei].Head = append(tables[ei].Head, r.Version)
			}
		}
	}
	type change struct {
		what   string
		change float64
		beyond bool
		tested bool
	}
	var all []change
	for _, part := range parts {
		chart := Chart{Title: part.Label, Note: "Each release's runs as dots beside their median; a ring marks a change beyond the noise from the release before."}
		firstRow := map[string]bool{}
		for _, m := range metrics {
			k := key{part.Part, m.Metric}
			if !slices.ContainsFunc(values, func(v map[key][]float64) bool { return len(v[k]) > 0 }) {
				continue
			}
			f := UnitFormat(units[m.Metric])
			panel := Chart{Title: m.Title, Kind: Lines, Groups: groups, Format: f, Unit: units[m.Metric]}
			for ei, e := range engines {
				series := ChartSeries{Name: e, Points: make([]Point, len(rs))}
				row := Row{Labels: []string{"", m.Title}}
				delta := Row{Labels: []string{"", "change"}}
				var prev []float64 // the runs of the engine's release before
				var prevR Release
				for i, r := range rs {
					if r.Engine != e {
						continue
					}
					v := values[i][k]
					s := Summarize(v)
					row.Cells = append(row.Cells, statsCell(s, f))
					c := None
					if prev != nil && len(v) > 0 {
						old := Summarize(prev)
						_, beyond := judge(prev, v, alpha)
						beyond = beyond && effect(old.Median, s.Median, f, minEffect)
						tested := len(prev) >= minTestRuns && len(v) >= minTestRuns
						series.Points[i].Mark = beyond
						if old.Median != 0 {
							pct := (s.Median - old.Median) / math.Abs(old.Median) * 100
							c = Cell{Text: fmt.Sprintf("%+.1f%%", pct)}
							switch {
							case beyond:
								c.Text += " *"
							case !tested:
								c.Text += " ?"
							}
							all = append(all, change{label(prevR) + " → " + r.Version + " " + part.Label + " " + strings.ToLower(m.Title), pct, beyond, tested})
						}
					}
					delta.Cells = append(delta.Cells, c)
					if len(v) > 0 {
						series.Points[i].Stats = s
						series.Points[i].Runs = v
						prev, prevR = v, r
					}
				}
				panel.Series = append(panel.Series, series)
				if !firstRow[e] {
					firstRow[e] = true
					row.Labels[0] = part.Label
				}
				tables[ei].Rows = append(tables[ei].Rows, row, delta)
			}
			chart.Panels = append(chart.Panels, panel)
		}
		if len(chart.Panels) == 1 {
			// One figure: a chart of its own, the full width.
			one := chart.Panels[0]
			one.Title, one.Note = chart.Title+": "+strings.ToLower(one.Title), chart.Note
			chart = one
		}
		if len(chart.Panels) > 0 || len(chart.Series) > 0 {
			p.Charts = append(p.Charts, chart)
		}
	}
	p.Tables = tables
	moved := slices.DeleteFunc(slices.Clone(all), func(c change) bool { return !c.beyond })
	var named []string
	for _, c := range moved[:min(len(moved), historyMaxNamed)] {
		named = append(named, fmt.Sprintf("%s %+.1f%%", c.what, c.change))
	}
	summary := fmt.Sprintf("Beyond the noise: %d of %d changes between neighbouring releases", len(moved), len(all))
	switch {
	case len(all) == 0:
		summary = "No change to judge: each engine has one release with figures"
	case len(moved) > historyMaxNamed:
		summary += ": " + strings.Join(named, ", ") + fmt.Sprintf(" and %d more", len(moved)-historyMaxNamed)
	case len(moved) > 0:
		summary += ": " + strings.Join(named, ", ")
	case !slices.ContainsFunc(all, func(c change) bool { return c.tested }):
		summary += fmt.Sprintf(", none tested: a change is tested with %d or more runs a side (-count)", minTestRuns)
	}
	p.Intro = summary + ".\n" +
		"Each column is a release of an engine, named by the version its loaded library reported, ordered by version; " +
		"a figure is the median of the release's runs, ± its spread (the larger distance from the median to its min or max).\n" +
		"change = (new - old) / old of the medians of a release and the one before it. " +
		fmt.Sprintf("* marks a change beyond the noise: a Mann-Whitney U test (as benchstat and compare) says the runs of the two releases differ at p < %g, ", alpha) +
		fmt.Sprintf("and the medians differ by %g%% or more and in the digits shown (figures without spread, such as bytes per point after a compaction, "+
			"can differ by a few bytes in every run: the test finds that, but it is not a change worth marking); ", minEffect) +
		fmt.Sprintf("? marks one not tested, with fewer than %d runs on a side. ", minTestRuns) +
		"With 3 runs a side p is never below 0.1, so run 4 or more (-count) to see a change at 0.05."
	return p
}

// effect reports whether a change of a median from old to new is large
// enough to mark: at least minEffect percent of old, and shown by f, the
// figure's format (medians that print alike did not change as far as
// the page can tell).
func effect(old, new float64, f func(float64) string, minEffect float64) bool {
	return f(old) != f(new) && math.Abs(new-old) >= minEffect/100*math.Abs(old)
}

// CompareVersions orders two release names, -1, 0 or +1, reading their
// runs of digits as numbers and the rest as text: 9.10.2 after 9.9.0,
// v2.1.7 after v2.0.0, 0.9.35 after 0.9.33, and 1.0 before 1.0.1.
func CompareVersions(a, b string) int {
	for a != "" && b != "" {
		var x, y string
		x, a = versionToken(a)
		y, b = versionToken(b)
		xd, yd := unicode.IsDigit(rune(x[0])), unicode.IsDigit(rune(y[0]))
		if xd && yd {
			// As numbers, however long: without leading zeros the longer
			// is the larger.
			x, y = strings.TrimLeft(x, "0"), strings.TrimLeft(y, "0")
			if c := cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(x, y)); c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(x, y); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// versionToken splits s into its first run of digits or of other
// characters, and the rest.
func versionToken(s string) (token, rest string) {
	digit := unicode.IsDigit(rune(s[0]))
	i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsDigit(r) != digit })
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}
