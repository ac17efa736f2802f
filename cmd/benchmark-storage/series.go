package main

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload"
	"github.com/tsbench/storage/workload/harness"
)

// series is the time-series workload suite.
type series struct{}

func (series) check(s *settings) error { return workloadConfig(s).Validate() }

func (series) start(s *settings, name string) *workload.Result {
	return &workload.Result{Header: harness.Header{Options: s.effective[name]}, Config: workloadConfig(s)}
}

// run runs the steps on the engine, in a clone of the dataset with
// -dataset and one saved (runOnDataset). After each step the child
// sends the result so far, which the parent reports if the child is
// stopped.
func (su series) run(s *settings, name string, opts engine.Options, p *progress) (*workload.Result, error) {
	cfg := workloadConfig(s)
	cfg.Progress, cfg.Log = p, p
	return runOnDataset(su, s, name, opts, p, func(r *datasetRun) (*workload.Result, error) {
		cfg.Preloaded, cfg.AfterWrite = r.use != nil, r.save
		cfg.StepDone = func(res *workload.Result) {
			res.Options, res.Dataset = s.effective[name], r.use
			p.sendPartial(res)
		}
		return workload.Run(r.db, s.child.dir, cfg)
	})
}

func (series) fields(res *workload.Result) resultFields {
	return resultFields{header: &res.Header, err: &res.Error, dataset: &res.Dataset}
}

// failure is the error that made an engine's run fail: its own or its
// first failed step's.
func (series) failure(res *workload.Result) string {
	return firstFailure(res.Error, res.Steps, func(st workload.Step) (string, string) { return st.Name, st.Error })
}

func (series) report(runID string, env harness.Environment, results []*workload.Result) renderer {
	return &workload.Report{RunID: runID, Env: env, Results: results}
}

// workloadConfig is the workload every engine of the run gets.
func workloadConfig(s *settings) workload.Config {
	return workload.Config{
		Points:        s.points,
		Series:        s.series,
		Batch:         s.batch,
		Seed:          s.seed,
		Settle:        s.settle,
		ReuseIterator: s.reuseIterator,
		Interval:      s.interval,
	}
}
