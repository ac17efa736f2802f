package main

import (
	"fmt"
	"slices"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/suite"
)

// resolveReleases installs the releases -engine names (rocksdb@10.0.1)
// that set-up has not installed yet, once, before anything runs, and keeps
// each for its children's environment; what a release's library lacks
// that the engine does without is said before the run (s.lacks).
func resolveReleases(s *settings, named []engine.Named) error {
	for _, n := range named {
		if n.Release == "" || !slices.Contains(s.engines, n.String()) {
			continue // the linked library, or left out (checkJVM)
		}
		if s.common.Dataset != "" {
			// An engine process names its dataset by its registered
			// engine: two releases would share one.
			return inputErrorf("-dataset keeps one dataset per engine, not per release of its library: run %s without -dataset", n)
		}
		r, err := n.Resolve()
		if err != nil {
			return inputErrorf("-engine: %v", suite.Unprefixed(err, engine.ErrRelease))
		}
		if s.releases == nil {
			s.releases = map[string]engine.Release{}
		}
		s.releases[n.String()] = r
		if r.Lacks != "" {
			s.lacks = append(s.lacks, n.String()+": "+r.Lacks)
		}
	}
	return nil
}

// engineOf is the registered engine that name, as -engine gave it, runs:
// rocksdb for rocksdb@10.0.1.
func (s *settings) engineOf(name string) string {
	if r, ok := s.releases[name]; ok {
		return r.Engine
	}
	return name
}

// ranRelease checks that a run of a release (-engine rocksdb@10.0.1) ran
// that release, by the version its engine process read from the library
// it loaded, and records how that library was built as the run's
// description, which the report shows beside the version
// (harness.Environment.Ran). A run that reports no version is left as it
// is: it failed before it said.
func ranRelease(res *suite.Result, r engine.Release) {
	h := res.Fields().Header
	switch {
	case r.Version == "" || h.Version == "":
	case h.Version != r.Version:
		fail(res, fmt.Sprintf("the engine process loaded version %s of its library, not release %s from %s", h.Version, r.Version, r.Dir))
	case h.Description == "":
		h.Description = r.Build
	}
}
