package main

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/workload/micro"
)

// TestJVMForks runs the micro benchmarks as JMH measures them, tiny: each
// of lmdbjava's benchmarks in 2 fresh JVMs of 2 measured iterations, its
// µs/op their mean and its error JMH's; pebble, a Go engine, beside it
// runs one pass, as -forks leaves Go engines.
func TestJVMForks(t *testing.T) {
	needWorker(t)
	parent, aside := t.TempDir(), t.TempDir()
	out := filepath.Join(aside, "results.json")
	runOK(t, "-engine", "lmdbjava,pebble", "-path", parent, "-benchmarks", "write,readSeq", "-key", "int4", "-num", "1k",
		"-forks", "2", "-warmup-iterations", "1", "-iterations", "2", "-out", out)
	var rep micro.Report
	readJSON(t, out, &rep)
	if len(rep.Results) != 2 {
		t.Fatalf("%d results", len(rep.Results))
	}
	for _, b := range rep.Results[0].Benchmarks {
		var sum float64
		for _, us := range b.Iterations {
			sum += us
		}
		if b.Error != "" || b.Forks != 2 || len(b.Iterations) != 4 || b.Ops != 4000 || b.JVM == nil || b.JVM.WarmupOps != 1000 {
			t.Errorf("lmdbjava %s: %+v; want 2 forks of 2 iterations of 1k", b.Name, b)
			continue
		}
		if math.Abs(b.MicrosPerOp-sum/4) > 1e-9 || b.MicrosPerOpError != micro.MeanError(b.Iterations, micro.Confidence) || b.MicrosPerOpError <= 0 {
			t.Errorf("lmdbjava %s: %g ± %g µs/op of %v", b.Name, b.MicrosPerOp, b.MicrosPerOpError, b.Iterations)
		}
		if b.Name == "readSeq" && (b.Verify == nil || !b.Verify.OK() || b.Verify.Read != 1000) {
			t.Errorf("lmdbjava readSeq: %+v", b.Verify)
		}
	}
	for _, b := range rep.Results[1].Benchmarks {
		if b.Error != "" || b.Forks != 0 || b.Iterations != nil || b.Ops != 1000 {
			t.Errorf("pebble %s: %+v; want one pass", b.Name, b)
		}
	}
	checkUntouched(t, parent)
}

// TestForksRefused: iterations without forks, and counts below one, exit 2.
func TestForksRefused(t *testing.T) {
	parent := t.TempDir()
	checkRefused(t, "add -forks", "-path", parent, "-engine", "pebble", "-benchmarks", "write", "-iterations", "5")
	checkRefused(t, "at least 1", "-path", parent, "-engine", "pebble", "-benchmarks", "write", "-forks", "0")
}
