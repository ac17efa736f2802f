package main

import (
	"fmt"
	"io"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
)

// A suite is what a run measures on each engine and how it is reported:
// the time-series workload (series), the classic micro benchmarks
// (microSuite), the mixed workload (mixedSuite), the steady-state
// workload (steadySuite) or the crash check (crashSuite). R is its
// per-engine result, which a child hands its parent as JSON. The parent,
// child and output code is the same for all.
type suite[R any] interface {
	// check validates what only the suite's library knows, before
	// anything is created.
	check(s *settings) error
	// start is a result with the run's parameters before engine name
	// ran: what an engine that failed to open or was stopped reports,
	// rather than an empty result.
	start(s *settings, name string) *R
	// run runs the suite on engine name, opened with opts, in the child's
	// data directory.
	run(s *settings, name string, opts engine.Options, p *progress) (*R, error)
	// fields are the parts of res that the parent and child fill in and
	// read whatever the suite.
	fields(res *R) resultFields
	// failure says why res failed, "" if it passed.
	failure(res *R) string
	// report renders the results of a run.
	report(runID string, env harness.Environment, results []*R) renderer
}

// resultFields point into a suite's result.
type resultFields struct {
	header *harness.Header
	err    *string // why the engine failed, "" if it did not
	// dataset is where the run's data came from with -dataset; nil for
	// a suite that keeps no datasets.
	dataset **dataset.Use
}

// label records in res the engine's name and version, which of its runs
// it is (from 1), and err unless res already holds an error.
func label[R any](su suite[R], res *R, name string, repeat int, err error) {
	f := su.fields(res)
	f.header.Engine, f.header.Repeat = name, repeat
	if f.header.Version == "" {
		f.header.Version = engine.Version(name)
	}
	if *f.err == "" {
		*f.err = errorText(err)
	}
}

// fail makes why the reason res failed, in place of failure's.
func fail[R any](su suite[R], res *R, why string) { *su.fields(res).err = why }

// reused says where res's data came from when it reused a dataset, ""
// otherwise.
func reused[R any](su suite[R], res *R) string {
	if f := su.fields(res); f.dataset != nil {
		return reusedNote(*f.dataset)
	}
	return ""
}

// firstFailure is own, a result's error, or else the error of its first
// failed part (a step, a benchmark) after the part's name.
func firstFailure[P any](own string, parts []P, part func(P) (name, err string)) string {
	if own != "" {
		return own
	}
	for _, p := range parts {
		if name, err := part(p); err != "" {
			return name + ": " + err
		}
	}
	return ""
}

// renderer is a report in every -format.
type renderer interface {
	String() string
	Markdown() string
	WriteCSV(io.Writer) error
	WriteJSON(io.Writer) error
	HTML() string
}

// goBencher is a report that also has the Go benchmark format.
type goBencher interface {
	WriteGoBench(io.Writer) error
}

// effective is the options an engine ran with as results record them
// (engine.Effective), and the run's error err, or the reason they could
// not be recorded if the run had none.
func effective(name string, opts engine.Options, err error) (map[string]any, error) {
	m, eerr := engine.Effective(name, opts)
	if err == nil && eerr != nil {
		err = fmt.Errorf("record options: %w", eerr)
	}
	return m, err
}

// errorText is err's message, "" for nil.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
