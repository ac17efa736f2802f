package main

import (
	"slices"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/suite"
)

// outOfProcess returns the engines of s that run in a process of their
// own (engine.Driver.Process: the JVM stores, which the JVM worker runs),
// in s's order.
func outOfProcess(s *settings) []string {
	var names []string
	for _, n := range s.engines {
		if d, err := engine.Lookup(n); err == nil && d.Process != nil {
			names = append(names, n)
		}
	}
	return names
}

// checkJVM refuses, before anything runs, what the engines that the JVM
// worker runs cannot do: a workload the worker does not run
// (suite.JVMRunner), settings it lacks, a workload that reads keys in
// order on an unordered store (Chronicle Map), and a worker that cannot
// start (engine.Driver.Process says why).
func checkJVM(s *settings) error {
	names := outOfProcess(s)
	if len(names) == 0 {
		return nil
	}
	list := strings.Join(names, ", ")
	w := s.workload
	if !w.OnJVM() {
		var runs []string
		for _, o := range workloadsWhere((*suite.Suite).OnJVM) {
			runs = append(runs, o.Info().About)
		}
		return inputErrorf("-engine %s: the JVM engines run %s, not -workload %s", list, strings.Join(runs, " and "), w.Name())
	}
	if err := w.JVM(s.common); err != nil {
		return inputErrorf("-engine %s: %v", list, suite.Unprefixed(err, suite.ErrInvalid))
	}
	for _, n := range names {
		d, _ := engine.Lookup(n)
		if !w.Info().Ordered || !d.Limits.Unordered {
			continue
		}
		why := "keeps no order of keys, which " + w.Info().About + "'s queries need"
		if !slices.Contains(s.byGroup, n) {
			return inputErrorf("-engine %s: %s %s: run it with -benchmarks write,readKey", n, n, why)
		}
		// Named by its group: the others run.
		s.engines = slices.DeleteFunc(s.engines, func(e string) bool { return e == n })
		s.leftOut = append(s.leftOut, "left out "+n+": it "+why)
	}
	if len(s.engines) == 0 {
		return inputErrorf("-engine: no engine left to run: %s", strings.Join(s.leftOut, "; "))
	}
	d, _ := engine.Lookup(names[0])
	if _, _, err := d.Process(); err != nil {
		return inputErrorf("-engine %s: %v", list, err)
	}
	return nil
}
