package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/timeseries"
)

// runMerge is "benchmark-storage merge a.json b.json ...": time-series
// results written by separate invocations (an engine at a time, across
// days) as one report, in any format. Files whose workload parameters,
// machine or memory limit differ, or that both hold one engine, are
// refused, naming the difference: their figures would not be comparable.
func runMerge(args []string, stdout, stderr io.Writer) int {
	c := newMerge(stderr)
	if code, done := c.parse(args); done {
		return code
	}
	if c.fs.NArg() == 0 {
		return c.fail("give the JSON reports to merge: benchmark-storage merge a.json b.json ...")
	}
	if f, ok := formatAliases[*c.format]; ok {
		*c.format = f
	}
	if !slices.Contains(formats, *c.format) || *c.format == report.FormatGoBench {
		return c.fail("-format %q: use table, markdown, csv, json or html", *c.format)
	}
	outFormat, err := c.outFormat(extFormats)
	if err != nil {
		return c.fail("%v", err)
	}
	var reports []timeseries.Report
	for _, path := range c.fs.Args() {
		r, err := loadSeries(path)
		if err != nil {
			return c.fail("%v", err)
		}
		reports = append(reports, r)
	}
	merged, err := mergeReports(c.fs.Args(), reports)
	if err != nil {
		return c.fail("%v", err)
	}
	render := func(f string) ([]byte, error) {
		var b bytes.Buffer
		err := report.Write(&b, &merged, f)
		return b.Bytes(), err
	}
	b, err := render(*c.format)
	if err == nil {
		_, err = stdout.Write(b)
	}
	if err == nil && *c.out != "" {
		if b, err = render(outFormat); err == nil {
			err = os.WriteFile(*c.out, b, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "benchmark-storage merge: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// mergeUsage is merge's -h text before its flags.
const mergeUsage = "Usage: benchmark-storage merge [flags] a.json b.json ...\n\n" +
	"Merges time-series JSON reports of the same workload parameters, machine and memory limit,\n" +
	"written by separate runs (one engine each, say), into one report.\n\nFlags:\n"

// newMerge is merge's command line, -format and -out. The flag
// reference (clidoc.go) lists its flags too.
func newMerge(stderr io.Writer) *subcommand {
	return newSubcommand("merge", mergeUsage, "table, markdown, csv, json or html", "the merged report", ".txt, .md, .csv, .json, .html", stderr)
}

// loadSeries reads a time-series JSON report.
func loadSeries(path string) (timeseries.Report, error) {
	var r timeseries.Report
	if _, err := readReport(path, &r); err != nil {
		return r, err
	}
	if len(r.Results) == 0 || slices.ContainsFunc(r.Results, func(res *timeseries.Result) bool { return res.Steps == nil && res.Error == "" }) {
		return r, fmt.Errorf("%s holds no time-series results: merge reads the time-series workload's JSON reports", path)
	}
	return r, nil
}

// mergeReports is reports as one, the first's environment with every
// engine's version and build, or an error naming what differs.
func mergeReports(paths []string, reports []timeseries.Report) (timeseries.Report, error) {
	first := reports[0]
	m := timeseries.Report{RunID: first.RunID, Env: first.Env}
	m.Env.EngineVersions, m.Env.EngineBuilds = map[string]string{}, map[string]string{}
	m.Env.CommandLine = append([]string{"benchmark-storage", "merge"}, paths...)
	facts := func(r timeseries.Report) runFacts {
		b, _ := json.Marshal(r) // it was decoded from JSON
		f, _ := readFacts(b)
		return f
	}
	machine := func(r timeseries.Report) string { return machineOf(r.Env) }
	for i, r := range reports {
		switch d := measuredDifference(facts(first), facts(r)); {
		case d != "":
			return m, fmt.Errorf("%s and %s ran different workloads (%s): merge runs of the same workload parameters", paths[0], paths[i], d)
		case machine(r) != machine(first):
			return m, fmt.Errorf("%s ran on %s, %s on %s: merge runs of one machine", paths[0], machine(first), paths[i], machine(r))
		case r.Env.MemoryLimit != first.Env.MemoryLimit:
			return m, fmt.Errorf("%s ran with -memory %d bytes, %s with %d: merge runs of one memory limit", paths[0], first.Env.MemoryLimit, paths[i], r.Env.MemoryLimit)
		case r.Env.Sync != first.Env.Sync:
			return m, fmt.Errorf("%s ran with sync %s, %s with %s: merge runs of one durability", paths[0], first.Env.Sync, paths[i], r.Env.Sync)
		}
		for _, res := range r.Results {
			if slices.ContainsFunc(m.Results, func(o *timeseries.Result) bool { return o.Engine == res.Engine && o.Repeat == res.Repeat }) {
				return m, fmt.Errorf("%s is in more than one of the files (%s among them): merge one run of each engine", res.Engine, paths[i])
			}
			m.Results = append(m.Results, res)
		}
		maps.Copy(m.Env.EngineVersions, r.Env.EngineVersions)
		maps.Copy(m.Env.EngineBuilds, r.Env.EngineBuilds)
	}
	var names []string
	for _, res := range m.Results {
		names = append(names, res.Engine)
	}
	m.Env.Only(names)
	return m, nil
}
