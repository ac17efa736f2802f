package results

import (
	"slices"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// Report is the results of one or more engines on the same workload,
// with the machine they ran on: what every workload's Report is (type
// Report results.Report[Result]), the JSON every format is made from. An
// engine run several times (-count) has one result per run, told apart
// by its Repeat.
type Report[R any] struct {
	// Schema is the layout version of the results (SchemaVersion) when
	// written; results written before it was recorded read as 1.
	Schema int `json:"schema,omitempty"`
	// RunID identifies the run that made the report, so that results of
	// several runs can be stacked (CSV) and told apart.
	RunID   string              `json:"run_id,omitempty"`
	Env     harness.Environment `json:"environment"`
	Results []*R                `json:"results"`
}

// SchemaVersion is the layout of the results this build writes. 2: one
// verification record in every workload (harness.Verification: wrong for
// the time-series and mixed workloads' wrong_values, keys that should
// not be there counted as unexpected everywhere). Older results still
// read: their verification's wrong_values reads as wrong.
const SchemaVersion = 2

// Schema tells the plumbing how to read a workload's result R, once for
// every report of it.
type Schema[R any] struct {
	// Header is the result's engine, version, repeat and options.
	Header func(*R) *harness.Header
	// Error is why the run failed, "" if it did not.
	Error func(*R) string
	// Ran reports whether the run got as far as its workload: an engine
	// whose process crashed before reporting has no config and no figure.
	Ran func(*R) bool
	// Run is the figures of the run as a whole, the CSV's part "run": the
	// engine's version, options and config, and its error (RunFigures).
	Run func(*R) []report.Figure
	// Parts are the run's parts (steps, benchmarks, operation kinds) in
	// order, each with its figures.
	Parts func(*R) []Part
}

// Part is one part of a run and its figures, named by their JSON paths.
type Part struct {
	Name    string
	Figures []report.Figure
}

// Set is a report's results, gathered by engine.
type Set[R any] struct {
	schema Schema[R]
	// All are the results in order, without the nil ones a caller may
	// leave, so that a gap cannot crash the rendering.
	All []*R
	// Groups are the results by engine, in the order engines first
	// appear.
	Groups []Group[R]
}

// Group is the runs of one engine, in the order they ran.
type Group[R any] struct {
	Engine string
	Runs   []*R
	// Err is why the engine's runs failed, "" if none did: the error of
	// its one run, or each failed run's, numbered.
	Err string
	// Ended is how the benchmark ended every failed run, when it ended
	// them all the same way (harness.OutcomeStopped,
	// harness.OutcomeOutOfMemory); "" if any failed by itself.
	Ended string
}

// New gathers results by engine.
func New[R any](schema Schema[R], results []*R) *Set[R] {
	s := &Set[R]{schema: schema, All: slices.DeleteFunc(slices.Clone(results), func(r *R) bool { return r == nil })}
	for _, runs := range report.Groups(s.All, func(r *R) string { return schema.Header(r).Engine }) {
		var errs, ended []string
		for _, r := range runs {
			errs = append(errs, schema.Error(r))
			if e := schema.Header(r).Ended(schema.Error(r)); e != "" {
				ended = append(ended, e)
			}
		}
		g := Group[R]{Engine: schema.Header(runs[0]).Engine, Runs: runs, Err: report.RunsError(errs)}
		if len(ended) > 0 && len(slices.Compact(ended)) == 1 && ended[0] != harness.OutcomeFailed {
			g.Ended = ended[0]
		}
		s.Groups = append(s.Groups, g)
	}
	return s
}

// Config is the config of the first result that ran (config reads it):
// every engine of a report runs the same workload, and one whose process
// crashed before reporting has none. The zero C if none ran.
func Config[R, C any](s *Set[R], config func(*R) C) C {
	if i := slices.IndexFunc(s.All, s.schema.Ran); i >= 0 {
		return config(s.All[i])
	}
	var none C
	return none
}

// Engines are the tables' columns: each engine and why it failed.
func (s *Set[R]) Engines() []report.Engine {
	var out []report.Engine
	for _, g := range s.Groups {
		out = append(out, report.Engine{Name: g.Engine, Error: g.Err, Ended: endedWords[g.Ended]})
	}
	return out
}

// endedWords are the status row's words for how the benchmark ended an
// engine's runs.
var endedWords = map[string]string{harness.OutcomeStopped: "stopped", harness.OutcomeOutOfMemory: "out of memory"}

// names are the engines' names, in the columns' order.
func (s *Set[R]) names() []string {
	var out []string
	for _, g := range s.Groups {
		out = append(out, g.Engine)
	}
	return out
}

// maxRuns is the most runs any engine had.
func (s *Set[R]) maxRuns() int {
	n := 0
	for _, g := range s.Groups {
		n = max(n, len(g.Runs))
	}
	return n
}

// RepeatNote is the introduction's sentence on repeated runs, "" when
// every engine ran once.
func (s *Set[R]) RepeatNote() string { return report.RepeatNote(s.maxRuns()) }

// Settings is the table of the options each engine ran with (its first
// run's).
func (s *Set[R]) Settings() report.Table {
	var opts []map[string]any
	for _, g := range s.Groups {
		opts = append(opts, s.schema.Header(g.Runs[0]).Options)
	}
	return report.SettingsTable(s.names(), opts)
}

// Page is the report's page: its title names the engines after what, and
// the environment is as the text reports show it.
func (s *Set[R]) Page(what, intro string, env [][2]string, tables []report.Table, charts []report.Chart) report.Page {
	return report.Page{Title: what + ": " + strings.Join(s.names(), ", "), Intro: intro, Engines: s.Engines(),
		Environment: env, Tables: tables, Charts: charts}
}
