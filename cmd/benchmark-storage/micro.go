package main

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload"
	"github.com/tsbench/storage/workload/micro"
)

// microSuite is the classic micro benchmarks suite (-benchmarks).
type microSuite struct{}

var _ suite[micro.Result] = microSuite{}

func (microSuite) check(s *settings) error { return microConfig(s).Validate() }

func (microSuite) args(s *settings) []string { return s.micro.args(s.batch) }

// run runs the benchmarks; micro.Run opens the engine anew for every fill
// and closes it at the end.
func (microSuite) run(s *settings, name string, opts engine.Options, p *progress) (*micro.Result, error) {
	cfg := microConfig(s)
	p.unit = "ops"
	cfg.Progress, cfg.Log = p, p
	res, err := micro.Run(micro.OpenerFor(name, opts), s.child.dir, cfg)
	if res != nil {
		res.Options = opts
	}
	return res, err
}

func (microSuite) label(res *micro.Result, name string, err error) {
	res.Engine = name
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

func (microSuite) report(env workload.Environment, results []*micro.Result) renderer {
	return &micro.Report{Env: env, Results: results}
}
