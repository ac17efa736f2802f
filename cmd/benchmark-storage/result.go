package main

import (
	"errors"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/suite"
)

// label records in res the engine's name and version, which of its runs
// it is (from 1), err unless res already holds an error, and how the
// benchmark ended the run if it did (endedError).
func label(res *suite.Result, name string, repeat int, err error) {
	f := res.Fields()
	f.Header.Engine, f.Header.Repeat = name, repeat
	if e, ok := errors.AsType[endedError](err); ok {
		f.Header.Outcome = e.outcome
	}
	if f.Header.Version == "" {
		f.Header.Version = engine.Version(name)
	}
	if *f.Err == "" {
		*f.Err = errorText(err)
	}
}

// fail makes why the reason res failed, in place of its own.
func fail(res *suite.Result, why string) { *res.Fields().Err = why }

// reused says where res's data came from when it reused a dataset, ""
// otherwise.
func reused(res *suite.Result) string {
	if f := res.Fields(); f.Dataset != nil {
		return reusedNote(*f.Dataset)
	}
	return ""
}

// errorText is err's message, "" for nil.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
