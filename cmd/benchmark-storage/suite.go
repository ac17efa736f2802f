package main

import (
	"io"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload"
)

// A suite is what a run measures on each engine and how it is reported:
// the time-series workload (series) or, with -benchmarks, the classic
// micro benchmarks (microSuite). R is its per-engine result, which a child
// hands its parent as JSON. The parent, child and output code is the same
// for both.
type suite[R any] interface {
	// check validates what only the suite's library knows, before
	// anything is created.
	check(s *settings) error
	// args are the suite's flags for a child.
	args(s *settings) []string
	// run runs the suite on engine name, opened with opts, in the child's
	// data directory.
	run(s *settings, name string, opts engine.Options, p *progress) (*R, error)
	// label records in res the engine's name and version, and err unless
	// res already holds an error.
	label(res *R, name string, err error)
	// failure says why res failed, "" if it passed.
	failure(res *R) string
	// report renders the results of a run.
	report(env workload.Environment, results []*R) renderer
}

// renderer is a report in every -format.
type renderer interface {
	String() string
	Markdown() string
	WriteCSV(io.Writer) error
	WriteJSON(io.Writer) error
}

// goBencher is a report that also has the Go benchmark format.
type goBencher interface {
	WriteGoBench(io.Writer) error
}

// errorText is err's message, "" for nil.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
