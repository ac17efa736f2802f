package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// compareFormats are compare's output formats, and the -out extensions
// that choose them.
var (
	compareFormats    = []string{report.FormatText, report.FormatMarkdown, report.FormatHTML}
	compareExtFormats = map[string]string{".txt": report.FormatText, ".md": report.FormatMarkdown, ".markdown": report.FormatMarkdown, ".html": report.FormatHTML, ".htm": report.FormatHTML}
)

// defaultAlpha is the significance level of compare's test, benchstat's.
const defaultAlpha = 0.05

// runCompare is "benchmark-storage compare old.json new.json": the
// figures of two JSON reports side by side, per engine and step or
// benchmark, with the change and whether it is beyond the noise.
func runCompare(args []string, stdout, stderr io.Writer) int {
	c, alpha, metrics := newCompare(stderr)
	if code, done := c.parse(args); done {
		return code
	}
	if c.fs.NArg() != 2 {
		return c.fail("give two JSON reports, the old then the new: benchmark-storage compare old.json new.json")
	}
	if !slices.Contains(compareFormats, *c.format) {
		return c.fail("-format %q: use one of %s", *c.format, strings.Join(compareFormats, ", "))
	}
	outFormat, err := c.outFormat(compareExtFormats)
	if err != nil {
		return c.fail("%v", err)
	}
	if *c.out != "" {
		if err := checkOut(*c.out); err != nil {
			return c.fail("%v", err)
		}
	}
	if !(*alpha > 0 && *alpha < 1) {
		return c.fail("-alpha %g: use a level between 0 and 1, such as 0.05", *alpha)
	}
	oldWorkload, old, oldFacts, err := loadSide(c.fs.Arg(0))
	if err != nil {
		return c.fail("%v", err)
	}
	newWorkload, new, newFacts, err := loadSide(c.fs.Arg(1))
	if err != nil {
		return c.fail("%v", err)
	}
	if oldWorkload != newWorkload {
		return c.fail("%s holds results of %s and %s of %s: compare reports of the same workload", old.Name, oldWorkload.Info().About, new.Name, newWorkload.Info().About)
	}
	if d := measuredDifference(oldFacts, newFacts); d != "" {
		return c.fail("%s and %s measured different workloads (%s): compare runs of the same parameters", old.Name, new.Name, d)
	}
	chosen, err := compareMetrics(oldWorkload, *metrics, old, new)
	if err != nil {
		return c.fail("%v", err)
	}
	page := report.Compare(old, new, chosen, *alpha, !*c.verbose)
	if diffs := settingDifferences(oldFacts, newFacts); len(diffs) > 0 {
		// Often the point of the comparison, never to be missed.
		// After the first line, which says what moved.
		first, rest, _ := strings.Cut(page.Intro, "\n")
		page.Intro = first + "\nTHE RUNS DIFFER IN HOW THEY RAN; the changes below include these:\n  " +
			strings.Join(diffs, "\n  ") + "\n\n" + rest
	}
	return c.write(page, outFormat, stdout)
}

// compareUsage is compare's -h text before its flags.
const compareUsage = "Usage: benchmark-storage compare [flags] old.json new.json\n\n" +
	"Compares two JSON reports (-format json or -out x.json) per engine and step or benchmark:\n" +
	"old and new medians with their spread, the change in percent, and whether it is beyond the\n" +
	"noise (a Mann-Whitney U test, as benchstat; it needs -count 3 or more on both sides, 4 or more\n" +
	"to see a difference at p < 0.05).\n\nFlags:\n"

// newCompare is compare's command line: -format and -out, -alpha and
// -metric. The flag reference (clidoc.go) lists its flags too.
func newCompare(stderr io.Writer) (c *subcommand, alpha *float64, metrics *string) {
	c = newSubcommand("compare", compareUsage, "table, markdown or html", "the comparison", ".txt, .md, .html",
		"show every figure compared; without it, those beyond the noise or, when none is, the largest changes", stderr)
	alpha = c.fs.Float64("alpha", defaultAlpha, "significance `level` of the test: a change counts when p is below it")
	metrics = c.fs.String("metric", "", "comma-separated `figures` to compare, by JSON name (time_ns, io.write_bytes, latency.p99_ns), or all (default: the workload's main ones, such as time, CPU user time, bytes written, DB size, p99 latency and peak RSS of the time-series steps)")
	return c, alpha, metrics
}

// loadSide reads a JSON report of any workload compare reads, and the
// facts of how it ran.
func loadSide(path string) (*suite.Suite, report.Side, runFacts, error) {
	var probe struct {
		RunID string `json:"run_id"`
	}
	b, err := readReport(path, &probe)
	if err != nil {
		return nil, report.Side{}, runFacts{}, err
	}
	facts, err := readFacts(b)
	if err != nil {
		return nil, report.Side{}, runFacts{}, fmt.Errorf("%s: %v", path, err)
	}
	side := report.Side{Name: path, RunID: probe.RunID, Start: startOf(facts.env), Command: strings.Join(facts.env.CommandLine, " ")}
	w, samples, err := suite.ReadSamples(b)
	switch {
	case errors.Is(err, suite.ErrUnknownReport):
		return nil, side, facts, fmt.Errorf("%s: %v: give a JSON report written by -format json", path, err)
	case errors.Is(err, suite.ErrNotCompared):
		return nil, side, facts, fmt.Errorf("%s: %v: compare reads the reports of %s", path, err, strings.Join(suite.Compared(), ", "))
	case err != nil:
		return nil, side, facts, fmt.Errorf("%s: %v", path, err)
	}
	side.Samples = samples
	return w, side, facts, nil
}

// startOf is when a report's run started, "" if it does not say.
func startOf(env harness.Environment) string {
	if env.Start.IsZero() {
		return ""
	}
	return env.Start.UTC().Format("2006-01-02 15:04:05 MST")
}

// compareMetrics resolves -metric: the suite's main figures by default,
// every number either side has for all, or the named ones, each of which
// must exist.
func compareMetrics(w *suite.Suite, list string, sides ...report.Side) ([]report.CompareMetric, error) {
	var known []string
	for _, sd := range sides {
		for _, s := range sd.Samples {
			if !slices.Contains(known, s.Metric) {
				known = append(known, s.Metric)
			}
		}
	}
	switch list {
	case "":
		if m := w.CompareMetrics(); len(m) > 0 {
			return m, nil
		}
		return nil, fmt.Errorf("no default figures for %s", w.Info().About)
	case "all":
		var out []report.CompareMetric
		for _, m := range known {
			out = append(out, report.CompareMetric{Metric: m, Title: m})
		}
		return out, nil
	}
	var out []report.CompareMetric
	for _, m := range strings.Split(list, ",") {
		m = strings.TrimSpace(m)
		if !slices.Contains(known, m) {
			var b bytes.Buffer
			for i, k := range known {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(k)
			}
			return nil, fmt.Errorf("-metric: no figure %q in these reports: choose from %s, or all", m, b.String())
		}
		out = append(out, report.CompareMetric{Metric: m, Title: m})
	}
	return out, nil
}
