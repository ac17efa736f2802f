package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/micro"
	"github.com/tsbench/storage/workload/mixed"
)

// compareFormats are compare's output formats, and the -out extensions
// that choose them.
var (
	compareFormats    = []string{"table", "markdown", "html"}
	compareExtFormats = map[string]string{".txt": "table", ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}
)

// defaultAlpha is the significance level of compare's test, benchstat's.
const defaultAlpha = 0.05

// runCompare is "benchmark-storage compare old.json new.json": the
// figures of two JSON reports side by side, per engine and step or
// benchmark, with the change and whether it is beyond the noise.
func runCompare(args []string, stdout, stderr io.Writer) int {
	c := newSubcommand("compare", "table, markdown or html", "the comparison", ".txt, .md, .html", stderr)
	alpha := c.fs.Float64("alpha", defaultAlpha, "significance `level` of the test: a change counts when p is below it")
	metrics := c.fs.String("metric", "", "comma-separated `figures` to compare, by JSON name (time_ns, io.write_bytes, latency.p99_ns), or all (default: the main ones)")
	if code, done := c.parse(args, "Usage: benchmark-storage compare [flags] old.json new.json\n\n"+
		"Compares two JSON reports (-format json or -out x.json) per engine and step or benchmark:\n"+
		"old and new medians with their spread, the change in percent, and whether it is beyond the\n"+
		"noise (a Mann-Whitney U test, as benchstat; it needs -count 3 or more on both sides, 4 or more\n"+
		"to see a difference at p < 0.05).\n\nFlags:\n"); done {
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
	if !(*alpha > 0 && *alpha < 1) {
		return c.fail("-alpha %g: use a level between 0 and 1, such as 0.05", *alpha)
	}
	oldKind, old, oldFacts, err := loadSide(c.fs.Arg(0))
	if err != nil {
		return c.fail("%v", err)
	}
	newKind, new, newFacts, err := loadSide(c.fs.Arg(1))
	if err != nil {
		return c.fail("%v", err)
	}
	if oldKind != newKind {
		return c.fail("%s holds %s and %s holds %s: compare reports of the same kind", old.Name, oldKind, new.Name, newKind)
	}
	if d := measuredDifference(oldFacts, newFacts); d != "" {
		return c.fail("%s and %s measured different workloads (%s): compare runs of the same parameters", old.Name, new.Name, d)
	}
	chosen, err := compareMetrics(oldKind, *metrics, old, new)
	if err != nil {
		return c.fail("%v", err)
	}
	page := report.Compare(old, new, chosen, *alpha)
	if diffs := settingDifferences(oldFacts, newFacts); len(diffs) > 0 {
		// Often the point of the comparison, never to be missed.
		page.Intro = "THE RUNS DIFFER IN HOW THEY RAN; the changes below include these:\n  " +
			strings.Join(diffs, "\n  ") + "\n\n" + page.Intro
	}
	render := func(f string) string {
		switch f {
		case "markdown":
			return page.Markdown()
		case "html":
			return page.HTML()
		}
		return page.Text()
	}
	if _, err := io.WriteString(stdout, render(*c.format)); err != nil {
		return c.fail("%v", err)
	}
	if *c.out != "" {
		if err := os.WriteFile(*c.out, []byte(render(outFormat)), 0o644); err != nil {
			fmt.Fprintf(stderr, "benchmark-storage compare: -out: %v\n", err)
			return exitFailed
		}
	}
	return exitOK
}

// The kinds of report compare reads.
const (
	kindSeries = "time-series results"
	kindMicro  = "micro benchmark results"
	kindMixed  = "mixed workload results"
)

// sampled is a report compare can read.
type sampled interface{ Samples() []report.Samples }

// compareKinds are the reports compare reads: the key only their results
// have, their kind, a report to decode into, and their default figures.
var compareKinds = []struct {
	key, kind string
	decode    func([]byte) (sampled, error)
	metrics   []report.CompareMetric
}{
	{"benchmarks", kindMicro, decodeSampled[micro.Report], micro.CompareMetrics},
	{"steps", kindSeries, decodeSampled[workload.Report], workload.CompareMetrics},
	{"operations", kindMixed, decodeSampled[mixed.Report], mixed.CompareMetrics},
}

// decodeSampled decodes a report of type T.
func decodeSampled[T sampled](b []byte) (sampled, error) {
	var r T
	err := json.Unmarshal(b, &r)
	return r, err
}

// loadSide reads a JSON report of any kind compare reads, and the facts
// of how it ran.
func loadSide(path string) (string, report.Side, runFacts, error) {
	var probe struct {
		RunID   string                       `json:"run_id"`
		Results []map[string]json.RawMessage `json:"results"`
	}
	b, err := readReport(path, &probe)
	if err != nil {
		return "", report.Side{}, runFacts{}, err
	}
	facts, err := readFacts(b)
	if err != nil {
		return "", report.Side{}, runFacts{}, fmt.Errorf("%s: %v", path, err)
	}
	side := report.Side{Name: path, RunID: probe.RunID, Start: startOf(facts.env), Command: strings.Join(facts.env.CommandLine, " ")}
	for _, res := range probe.Results {
		for _, k := range compareKinds {
			if _, ok := res[k.key]; !ok {
				continue
			}
			r, err := k.decode(b)
			if err != nil {
				return "", side, facts, fmt.Errorf("%s: %v", path, err)
			}
			side.Samples = r.Samples()
			return k.kind, side, facts, nil
		}
	}
	return "", side, facts, fmt.Errorf("%s holds no results with steps, benchmarks or operations: give a JSON report written by -format json", path)
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
func compareMetrics(kind, list string, sides ...report.Side) ([]report.CompareMetric, error) {
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
		for _, k := range compareKinds {
			if k.kind == kind {
				return k.metrics, nil
			}
		}
		return nil, fmt.Errorf("no default figures for %s", kind)
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
