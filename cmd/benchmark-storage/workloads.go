package main

import (
	"io"
	"slices"
	"strings"

	"github.com/tsbench/storage/workload"
	"github.com/tsbench/storage/workload/crash"
	"github.com/tsbench/storage/workload/micro"
	"github.com/tsbench/storage/workload/mixed"
	"github.com/tsbench/storage/workload/steady"
)

// A workload is what -workload names: one suite, and how the parent and
// a child run it with the suite's own result type.
type workloadRunner struct {
	parent func(s *settings, stdout, stderr io.Writer) error
	child  func(s *settings, stderr io.Writer) int
}

// workloads are the registered workloads by name; nothing else in the
// program picks one by name.
var workloads = map[string]workloadRunner{}

// registerWorkload makes su the workload name.
func registerWorkload[R any](name string, su suite[R]) {
	workloads[name] = workloadRunner{
		parent: func(s *settings, stdout, stderr io.Writer) error { return runParent[R](su, s, stdout, stderr) },
		child:  func(s *settings, stderr io.Writer) int { return runChild[R](su, s, stderr) },
	}
}

func init() {
	registerWorkload[workload.Result](workloadSeries, series{})
	registerWorkload[micro.Result](workloadMicro, microSuite{})
	registerWorkload[mixed.Result](workloadMixed, mixedSuite{})
	registerWorkload[crash.Result](workloadCrash, crashSuite{})
	registerWorkload[steady.Result](workloadSteady, steadySuite{})
}

// workloadNames lists the registered workloads, sorted.
func workloadNames() string {
	var names []string
	for n := range workloads {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
