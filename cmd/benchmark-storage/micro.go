package main

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/micro"
)

// microSuite is the classic micro benchmarks suite (-benchmarks).
type microSuite struct{}

var _ suite[micro.Result] = microSuite{}

func (microSuite) check(s *settings) error { return microConfig(s).Validate() }

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

// start is a result with the run's parameters, for an engine that
// reports none.
func (microSuite) start(s *settings, name string) *micro.Result {
	return &micro.Result{Header: harness.Header{Options: s.effective[name]}, Config: microConfig(s)}
}

func (microSuite) label(res *micro.Result, name string, repeat int, err error) {
	res.Engine, res.Repeat = name, repeat
	if res.Version == "" {
		res.Version = engine.Version(name)
	}
	if res.Error == "" {
		res.Error = errorText(err)
	}
}

// failure is the error that made an engine's run fail: its own or its
// first failed benchmark's.
func (microSuite) failure(res *micro.Result) string {
	if res.Error != "" {
		return res.Error
	}
	for _, b := range res.Benchmarks {
		if b.Error != "" {
			return b.Name + ": " + b.Error
		}
	}
	return ""
}

func (microSuite) fail(res *micro.Result, why string) { res.Error = why }

func (microSuite) report(runID string, env harness.Environment, results []*micro.Result) renderer {
	return &micro.Report{RunID: runID, Env: env, Results: results}
}

func (microSuite) reused(*micro.Result) string { return "" }
