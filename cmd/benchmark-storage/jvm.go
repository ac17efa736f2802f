package main

import (
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
		if d, _ := engine.Lookup(n); w.Info().Ordered && d.Limits.Unordered {
			return inputErrorf("-engine %s: %s keeps no order of keys, which %s's queries need: run it with -benchmarks write,readKey", n, n, w.Info().About)
		}
	}
	d, _ := engine.Lookup(names[0])
	if _, _, err := d.Process(); err != nil {
		return inputErrorf("-engine %s: %v", list, err)
	}
	return nil
}
