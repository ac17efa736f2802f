package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/suite"
)

// historySizes are the figures history shows beside a workload's main
// one where its results have them: what a point (or a micro benchmark's
// entry) costs on disk.
var historySizes = []report.CompareMetric{
	{Metric: "bytes_per_point", Title: "Bytes per point"},
	{Metric: "storage.bytes_per_entry", Title: "Bytes per entry"},
}

// defaultMinEffect is -min-effect's default, in percent.
const defaultMinEffect = 1.0

// runHistory is "benchmark-storage history DIR|FILES...": the releases of
// engines in JSON reports of one workload, side by side in version
// order, with the change between neighbouring releases and whether it is
// beyond the noise.
func runHistory(args []string, stdout, stderr io.Writer) int {
	c, alpha, minEffect := newHistory(stderr)
	if code, done := c.parse(args); done {
		return code
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
	if !(*minEffect >= 0 && *minEffect < 100) {
		return c.fail("-min-effect %g: use a percentage from 0 to below 100, such as 1", *minEffect)
	}
	paths, err := historyPaths(c.fs.Args())
	if err != nil {
		return c.fail("%v", err)
	}
	var runs []historyRun
	for _, p := range paths {
		r, err := loadHistoryRun(p)
		if err != nil {
			return c.fail("%v", err)
		}
		if err := alike(runs, r); err != nil {
			return c.fail("%v", err)
		}
		runs = append(runs, r)
	}
	w := runs[0].suite
	metrics := slices.Clone(w.CompareMetrics()[:1])
	if *c.verbose {
		metrics = slices.Clone(w.CompareMetrics())
	}
	for _, m := range historySizes {
		if !slices.Contains(metrics, m) { // -v may have it (micro's)
			metrics = append(metrics, m)
		}
	}
	page := report.History(releases(runs), metrics, *alpha, *minEffect)
	page.Environment = historyEnvironment(runs)
	return c.write(page, outFormat, stdout)
}

// historyUsage is history's -h text before its flags.
const historyUsage = "Usage: benchmark-storage history [flags] DIR|a.json b.json ...\n\n" +
	"Sets the releases of engines side by side: the JSON reports given, or those in DIR\n" +
	"(results/history/NAME), of one workload with the same parameters, machine and settings, each\n" +
	"holding runs (-count) of one or more engines or releases (rocksdb@10.0.1). Runs are grouped by\n" +
	"engine and by the version its loaded library reported, in version order. Per step, a chart\n" +
	"(HTML) and a table give each release's median and spread, and mark a change from the release\n" +
	"before beyond the noise: a Mann-Whitney U test, as compare does, with p < -alpha and 3 runs or\n" +
	"more a side (4 or more to see a change at 0.05), and a change of at least -min-effect that the\n" +
	"figures as shown tell apart.\n\nFlags:\n"

// newHistory is history's command line: -format, -out, -alpha,
// -min-effect and -v. The flag reference (clidoc.go) lists its flags too.
func newHistory(stderr io.Writer) (c *subcommand, alpha, minEffect *float64) {
	c = newSubcommand("history", historyUsage, "table, markdown or html", "the history", ".txt, .md, .html",
		"show every figure compare shows by default (CPU time, bytes written, DB size, latency, memory); without it, the workload's main one (time per step) and bytes per point", stderr)
	alpha = c.fs.Float64("alpha", defaultAlpha, "significance `level` of the test: a change counts when p is below it")
	minEffect = c.fs.Float64("min-effect", defaultMinEffect, "smallest change, in `percent` of the release before's median, that is marked: a smaller change, or one whose two medians print alike, is never marked, however sure the test is")
	return c, alpha, minEffect
}

// historyPaths are the JSON reports args name: files as given, and the
// .json files directly in a directory, in name order.
func historyPaths(args []string) ([]string, error) {
	if len(args) == 0 {
		return nil, errors.New("give the JSON reports of the runs, or a directory of them: benchmark-storage history results/history/NAME")
	}
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			paths = append(paths, a) // readReport says what is wrong with it
			continue
		}
		in, _ := filepath.Glob(filepath.Join(a, "*.json"))
		if len(in) == 0 {
			return nil, fmt.Errorf("%s holds no JSON reports (*.json): give a directory of them, or the files", a)
		}
		paths = append(paths, in...)
	}
	for i, p := range paths {
		if slices.Contains(paths[:i], p) {
			return nil, fmt.Errorf("%s is given twice: give each report once", p)
		}
	}
	return paths, nil
}

// historyRun is one JSON report history reads.
type historyRun struct {
	path    string
	suite   *suite.Suite
	runID   string
	facts   runFacts
	samples []report.Samples
	// version is each engine's release, as its results name it.
	version map[string]string
	runs    map[string]int // how many runs of each engine it holds
}

// loadHistoryRun reads the JSON report at path.
func loadHistoryRun(path string) (historyRun, error) {
	var rep struct {
		RunID   string `json:"run_id"`
		Results []struct {
			Engine  string `json:"engine"`
			Version string `json:"version"`
		} `json:"results"`
	}
	b, err := readReport(path, &rep)
	if err != nil {
		return historyRun{}, err
	}
	r := historyRun{path: path, runID: rep.RunID, version: map[string]string{}, runs: map[string]int{}}
	if r.facts, err = readFacts(b); err != nil {
		return r, fmt.Errorf("%s: %v", path, err)
	}
	r.suite, r.samples, err = suite.ReadSamples(b)
	switch {
	case errors.Is(err, suite.ErrUnknownReport):
		return r, fmt.Errorf("%s: %v: give a JSON report written by -format json", path, err)
	case errors.Is(err, suite.ErrNotCompared):
		return r, fmt.Errorf("%s: %v: history reads the reports of %s", path, err, strings.Join(suite.Compared(), ", "))
	case err != nil:
		return r, fmt.Errorf("%s: %v", path, err)
	case len(r.samples) == 0:
		return r, fmt.Errorf("%s holds no figures (no run measured any): give reports of runs that did", path)
	}
	for _, res := range rep.Results {
		v := res.Version
		if v == "" {
			_, v, _ = strings.Cut(res.Engine, "@")
		}
		if v == "" {
			return r, fmt.Errorf("%s: its %s results record no version: history reads results that name their engine's release", path, res.Engine)
		}
		r.version[res.Engine] = v
		r.runs[res.Engine]++
	}
	return r, nil
}

// alike refuses r unless it measured what runs did, the same way: the
// same workload and parameters, machine, durability, memory limit and
// shared engine settings. It also refuses a run that one of runs holds.
func alike(runs []historyRun, r historyRun) error {
	if len(runs) == 0 {
		return nil
	}
	first := runs[0]
	switch d := measuredDifference(first.facts, r.facts); {
	case r.suite != first.suite:
		return fmt.Errorf("%s holds results of %s, %s of %s: history reads runs of one workload", first.path, first.suite.Info().About, r.path, r.suite.Info().About)
	case d != "":
		return fmt.Errorf("%s and %s ran different workloads (%s): history reads runs of the same workload parameters", first.path, r.path, d)
	case machineOf(r.facts.env) != machineOf(first.facts.env):
		return fmt.Errorf("%s ran on %s, %s on %s: history reads runs of one machine", first.path, machineOf(first.facts.env), r.path, machineOf(r.facts.env))
	case r.facts.env.Sync != first.facts.env.Sync:
		return fmt.Errorf("%s ran with sync %s, %s with %s: history reads runs of one durability", first.path, first.facts.env.Sync, r.path, r.facts.env.Sync)
	case r.facts.env.MemoryLimit != first.facts.env.MemoryLimit:
		return fmt.Errorf("%s ran with -memory %d bytes, %s with %d: history reads runs of one memory limit", first.path, first.facts.env.MemoryLimit, r.path, r.facts.env.MemoryLimit)
	case sharedDifference(first.facts, r.facts) != "":
		return fmt.Errorf("%s and %s ran with other engine settings (%s): history reads runs of the same settings", first.path, r.path, sharedDifference(first.facts, r.facts))
	}
	for _, o := range runs {
		if o.runID != "" && o.runID == r.runID {
			return fmt.Errorf("%s and %s hold the same run (run id %s): give each run once", o.path, r.path, r.runID)
		}
	}
	return nil
}

// engineFamily is an engine's name without its release: rocksdb for
// rocksdb@10.0.1.
func engineFamily(name string) string {
	family, _, _ := strings.Cut(name, "@")
	return family
}

// releases pools the samples of runs by engine and release.
func releases(runs []historyRun) []report.Release {
	var out []report.Release
	for _, r := range runs {
		for _, s := range r.samples {
			family, version := engineFamily(s.Engine), r.version[s.Engine]
			i := slices.IndexFunc(out, func(o report.Release) bool { return o.Engine == family && o.Version == version })
			if i < 0 {
				i = len(out)
				out = append(out, report.Release{Engine: family, Version: version})
			}
			s.Engine = family
			out[i].Samples = append(out[i].Samples, s)
		}
	}
	return out
}

// historyEnvironment says where each release's runs came from (the
// file, run, start, tool and the engine's build), then the machine and
// the workload's parameters, which every file shares.
func historyEnvironment(runs []historyRun) [][2]string {
	type from struct{ engine, version, text string }
	var froms []from
	for _, r := range runs {
		for _, name := range slices.Sorted(maps.Keys(r.version)) {
			n := r.runs[name]
			text := fmt.Sprintf("%s %s: %d run%s in %s (run %s, started %s; %s", engineFamily(name), r.version[name], n, plural(n), r.path,
				report.OrDash(r.runID), report.OrDash(startOf(r.facts.env)), report.OrDash(r.facts.env.Tool.String()))
			if b := r.facts.env.EngineBuilds[name]; b != "" {
				text += "; " + name + " build: " + b
			}
			froms = append(froms, from{engineFamily(name), r.version[name], text + ")"})
		}
	}
	slices.SortStableFunc(froms, func(a, b from) int {
		return cmp.Or(strings.Compare(a.engine, b.engine), report.CompareVersions(a.version, b.version))
	})
	var env [][2]string
	for _, f := range froms {
		env = append(env, [2]string{"From", f.text})
	}
	first := runs[0].facts
	texts := report.OptionTexts(first.config)
	var params []string
	for _, k := range slices.Sorted(maps.Keys(texts)) {
		params = append(params, k+" "+texts[k])
	}
	return append(env, [2]string{"Machine", machineOf(first.env)}, [2]string{"Sync", string(first.env.Sync)},
		[2]string{"Workload", runs[0].suite.Info().About + ": " + strings.Join(params, ", ")})
}

// plural is "s" but for one.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
