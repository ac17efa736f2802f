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
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// runMerge is "benchmark-storage merge a.json b.json ...": results of one
// workload written by separate invocations (an engine at a time, across
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
	if *c.out != "" {
		if err := checkOut(*c.out); err != nil {
			return c.fail("%v", err)
		}
	}
	var files []*suite.File
	for _, path := range c.fs.Args() {
		f, err := loadReport(path)
		if err != nil {
			return c.fail("%v", err)
		}
		files = append(files, f)
	}
	merged, err := mergeReports(c.fs.Args(), files)
	if err != nil {
		return c.fail("%v", err)
	}
	render := func(f string) ([]byte, error) {
		var b bytes.Buffer
		err := report.Write(&b, merged, f)
		return b.Bytes(), err
	}
	format := *c.format
	if format == report.FormatText && !*c.verbose {
		format = report.FormatBrief
	}
	b, err := render(format)
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
	"Merges JSON reports of one workload with the same parameters, machine and memory limit,\n" +
	"written by separate runs (one engine each, say), into one report.\n\nFlags:\n"

// newMerge is merge's command line, -format and -out. The flag
// reference (clidoc.go) lists its flags too.
func newMerge(stderr io.Writer) *subcommand {
	return newSubcommand("merge", mergeUsage, "table, markdown, csv, json or html", "the merged report", ".txt, .md, .csv, .json, .html",
		"print every table of the text report; without it, the main table, throughput and what failed", stderr)
}

// loadReport reads a JSON report of any workload.
func loadReport(path string) (*suite.File, error) {
	var probe struct{}
	b, err := readReport(path, &probe)
	if err != nil {
		return nil, err
	}
	f, err := suite.ReadReport(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: give a JSON report written by -format json", path, err)
	}
	return f, nil
}

// mergeReports is files as one report, the first's environment with
// every engine's version and build, or an error naming what differs.
func mergeReports(paths []string, files []*suite.File) (report.Renderer, error) {
	first := files[0]
	env := first.Env
	env.EngineVersions, env.EngineBuilds = map[string]string{}, map[string]string{}
	env.CommandLine = append([]string{"benchmark-storage", "merge"}, paths...)
	facts := func(f *suite.File) runFacts {
		b, _ := json.Marshal(struct {
			Env     harness.Environment `json:"environment"`
			Results []*suite.Result     `json:"results"`
		}{f.Env, f.Results}) // it was decoded from JSON
		r, _ := readFacts(b)
		return r
	}
	var results []*suite.Result
	for i, f := range files {
		switch d := measuredDifference(facts(first), facts(f)); {
		case f.Suite != first.Suite:
			return nil, fmt.Errorf("%s holds results of %s, %s of %s: merge runs of one workload", paths[0], first.Suite.Info().About, paths[i], f.Suite.Info().About)
		case d != "":
			return nil, fmt.Errorf("%s and %s ran different workloads (%s): merge runs of the same workload parameters", paths[0], paths[i], d)
		case machineOf(f.Env) != machineOf(first.Env):
			return nil, fmt.Errorf("%s ran on %s, %s on %s: merge runs of one machine", paths[0], machineOf(first.Env), paths[i], machineOf(f.Env))
		case f.Env.MemoryLimit != first.Env.MemoryLimit:
			return nil, fmt.Errorf("%s ran with -memory %d bytes, %s with %d: merge runs of one memory limit", paths[0], first.Env.MemoryLimit, paths[i], f.Env.MemoryLimit)
		case f.Env.Sync != first.Env.Sync:
			return nil, fmt.Errorf("%s ran with sync %s, %s with %s: merge runs of one durability", paths[0], first.Env.Sync, paths[i], f.Env.Sync)
		case sharedDifference(facts(first), facts(f)) != "":
			return nil, fmt.Errorf("%s and %s ran with other engine settings (%s): merge runs of the same settings", paths[0], paths[i], sharedDifference(facts(first), facts(f)))
		}
		for _, res := range f.Results {
			h := res.Fields().Header
			if slices.ContainsFunc(results, func(o *suite.Result) bool {
				oh := o.Fields().Header
				return oh.Engine == h.Engine && oh.Repeat == h.Repeat
			}) {
				return nil, fmt.Errorf("%s is in more than one of the files (%s among them): merge one run of each engine", h.Engine, paths[i])
			}
			results = append(results, res)
		}
		run := harness.MergedRun{File: paths[i], RunID: f.RunID, CommandLine: f.Env.CommandLine, Start: f.Env.Start, Tool: f.Env.Tool}
		for _, res := range f.Results {
			run.Engines = append(run.Engines, res.Fields().Header.Engine)
		}
		env.MergedFrom = append(env.MergedFrom, run)
		maps.Copy(env.EngineVersions, f.Env.EngineVersions)
		maps.Copy(env.EngineBuilds, f.Env.EngineBuilds)
	}
	var names []string
	for _, res := range results {
		names = append(names, res.Fields().Header.Engine)
	}
	env.Only(names)
	return first.Suite.Report(first.RunID, env, results), nil
}
