package main

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload"
	"github.com/tsbench/storage/workload/harness"
)

// series is the time-series workload suite.
type series struct{}

var _ suite[workload.Result] = series{}

func (series) check(s *settings) error { return workloadConfig(s).Validate() }

// run opens the engine (in a clone of the dataset, with -dataset and one
// saved), runs the steps and closes it. A failed Close fails the run: it
// may have lost acknowledged writes.
func (series) run(s *settings, name string, opts engine.Options, p *progress) (res *workload.Result, err error) {
	cfg := workloadConfig(s)
	cfg.Progress, cfg.Log = p, p
	r, err := openRun(s, name, &opts, p)
	if err != nil {
		return nil, err
	}
	defer closeEngine(r.db, &err)
	cfg.Preloaded, cfg.AfterWrite = r.use != nil, r.save
	cfg.StepDone = func(res *workload.Result) {
		res.Options, res.Dataset = s.effective[name], r.use
		p.sendPartial(res)
	}
	res, err = workload.Run(r.db, s.child.dir, cfg)
	if res != nil {
		res.Dataset = r.use
		err = r.record(&res.Header, name, opts, err)
	}
	return res, err
}

// start is a result with the run's parameters, for an engine that
// reports none: one that failed to open or was stopped.
func (series) start(s *settings, name string) *workload.Result {
	return &workload.Result{Header: harness.Header{Options: s.effective[name]}, Config: workloadConfig(s)}
}

func (series) label(res *workload.Result, name string, repeat int, err error) {
	res.Engine, res.Repeat = name, repeat
	if res.Version == "" {
		res.Version = engine.Version(name)
	}
	if res.Error == "" {
		res.Error = errorText(err)
	}
}

// failure is the error that made an engine's run fail: its own or its
// first failed step's.
func (series) failure(res *workload.Result) string {
	if res.Error != "" {
		return res.Error
	}
	for _, st := range res.Steps {
		if st.Error != "" {
			return st.Name + ": " + st.Error
		}
	}
	return ""
}

func (series) fail(res *workload.Result, why string) { res.Error = why }

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

func (series) reused(res *workload.Result) string { return reusedNote(res.Dataset) }
