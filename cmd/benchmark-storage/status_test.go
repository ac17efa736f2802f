package main

import (
	"bytes"
	"testing"

	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/suite"
	"github.com/tsbench/storage/workload/timeseries"
)

// TestStatusPartial checks that the steps a child finished reach its
// parent through the status lines, whatever came after them, so that a
// stopped or killed engine still reports them.
func TestStatusPartial(t *testing.T) {
	var pipe bytes.Buffer
	p := newProgress(&bytes.Buffer{}, "log", "pebble")
	p.report = &pipe
	p.Begin("Write 1M values", 1_000_000)
	p.Partial(&timeseries.Result{Config: timeseries.Config{Points: 1_000_000}, Steps: []timeseries.Step{{Name: timeseries.StepWrite}}})
	p.Begin("Query 1M values", 1_000_000)
	p.Update(250_000)
	pipe.WriteString(`{"step":"Query 1M val`) // the child died mid-line

	var l supervise.StatusLog
	l.Read(&pipe)
	ts, err := suite.Lookup("ts")
	if err != nil {
		t.Fatal(err)
	}
	var res *timeseries.Result
	if r := partialResult(ts, &l); r != nil {
		res = r.Value().(*timeseries.Result)
	}
	if res == nil || res.Config.Points != 1_000_000 || len(res.Steps) != 1 || res.Steps[0].Name != timeseries.StepWrite {
		t.Fatalf("partial result %+v, want the write step of 1M points", res)
	}
	if got, want := where(&l, true), `in step "Query 1M values" after 250k of 1M points`; !bytes.HasPrefix([]byte(got), []byte(want)) {
		t.Errorf("where = %q, want it to start with %q", got, want)
	}
	if got, want := where(&l, false), `in step "Query 1M values" after 250k of 1M points`; got != want {
		t.Errorf("where without the rate = %q, want %q", got, want)
	}
	var none supervise.StatusLog
	if res := partialResult(ts, &none); res != nil {
		t.Errorf("a child that sent no partial result gave %+v", res)
	}
}
