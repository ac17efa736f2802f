package main

import (
	"testing"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload"
	"github.com/tsbench/storage/workload/micro"
)

// TestJVMMemory checks that a JVM engine's steps and benchmarks have
// memory by kind where a Go engine's do, so that the two compare, in the
// protocol's fixtures (TestJVMEndToEnd checks it from a running worker,
// and the worker's own ProtocolTest that -memory-sample reaches it).
func TestJVMMemory(t *testing.T) {
	check := func(what string, m *measure.MemoryPeaks) {
		if m == nil || m.Samples < 1 || m.Private <= 0 || m.Go != 0 {
			t.Errorf("%s: memory %+v: want a sample, private memory and no Go runtime's", what, m)
		}
	}
	var ts workload.Result
	roundTrip(t, "testdata/protocol/result-ts.json", &ts)
	for _, st := range ts.Steps {
		check("result-ts.json "+st.Name, st.Memory)
	}
	var m micro.Result
	roundTrip(t, "testdata/protocol/result-micro.json", &m)
	for _, b := range m.Benchmarks {
		check("result-micro.json "+b.Name, b.Memory)
	}
}
