package main

import (
	"fmt"
	"io"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/harness"
)

// A suite is what a run measures on each engine and how it is reported:
// the time-series workload (series), the classic micro benchmarks
// (microSuite), the mixed workload (mixedSuite) or the crash check
// (crashSuite). R is its per-engine result, which a child
// hands its parent as JSON. The parent, child and output code is the same
// for both.
type suite[R any] interface {
	// check validates what only the suite's library knows, before
	// anything is created.
	check(s *settings) error
	// run runs the suite on engine name, opened with opts, in the child's
	// data directory.
	run(s *settings, name string, opts engine.Options, p *progress) (*R, error)
	// label records in res the engine's name and version, which of its
	// runs it is (from 1), and err unless res already holds an error.
	label(res *R, name string, repeat int, err error)
	// failure says why res failed, "" if it passed.
	failure(res *R) string
	// reused says where res's data came from when it reused a dataset,
	// "" otherwise.
	reused(res *R) string
	// fail makes why the reason res failed, in place of failure's.
	fail(res *R, why string)
	// report renders the results of a run.
	report(runID string, env harness.Environment, results []*R) renderer
}

// starter is a suite whose result can say the run's parameters before
// the engine ran: what an engine that failed to open or was stopped
// reports, rather than an empty result.
type starter[R any] interface {
	start(s *settings, name string) *R
}

// startResult is su's result before engine name ran.
func startResult[R any](su suite[R], s *settings, name string) *R {
	if st, ok := su.(starter[R]); ok {
		return st.start(s, name)
	}
	return new(R)
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
