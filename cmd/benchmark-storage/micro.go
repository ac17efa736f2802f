package main

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/micro"
)

// microSuite is the classic micro benchmarks suite (-benchmarks).
type microSuite struct{}

func (microSuite) check(s *settings) error { return microConfig(s).Validate() }

func (microSuite) start(s *settings, name string) *micro.Result {
	return &micro.Result{Header: harness.Header{Options: s.effective[name]}, Config: microConfig(s)}
}

// run runs the benchmarks; micro.Run opens the engine anew for every fill
// and closes it at the end.
func (microSuite) run(s *settings, name string, opts engine.Options, p *progress) (*micro.Result, error) {
	cfg := microConfig(s)
	p.unit = "ops"
	cfg.Progress, cfg.Log = p, p
	res, err := micro.Run(micro.OpenerFor(name, opts), s.child.dir, cfg)
	if res != nil {
		res.Options, err = effective(name, opts, err)
	}
	return res, err
}

func (microSuite) fields(res *micro.Result) resultFields {
	return resultFields{header: &res.Header, err: &res.Error}
}

// failure is the error that made an engine's run fail: its own or its
// first failed benchmark's.
func (microSuite) failure(res *micro.Result) string {
	return firstFailure(res.Error, res.Benchmarks, func(b micro.Bench) (string, string) { return b.Name, b.Error })
}

func (microSuite) report(runID string, env harness.Environment, results []*micro.Result) renderer {
	return &micro.Report{RunID: runID, Env: env, Results: results}
}
