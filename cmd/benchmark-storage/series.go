package main

import (
	"fmt"
	"strconv"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload"
)

// series is the time-series workload suite.
type series struct{}

var _ suite[workload.Result] = series{}

func (series) check(s *settings) error { return workloadConfig(s).Validate() }

func (series) args(s *settings) []string {
	return []string{
		"-points", strconv.FormatInt(s.points, 10),
		"-series", strconv.FormatInt(s.series, 10),
		"-batch", strconv.FormatInt(s.batch, 10),
		"-settle=" + strconv.FormatBool(s.settle),
	}
}

// run opens the engine, runs the steps and closes it. A failed Close fails
// the run: it may have lost acknowledged writes.
func (series) run(s *settings, name string, opts engine.Options, p *progress) (res *workload.Result, err error) {
	db, err := engine.Open(name, s.child.dir, &opts)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close: %w", cerr)
		}
	}()
	cfg := workloadConfig(s)
	cfg.Progress, cfg.Log = p, p
	res, err = workload.Run(db, s.child.dir, cfg)
	if res != nil {
		res.Options = opts
	}
	return res, err
}

func (series) label(res *workload.Result, name string, err error) {
	res.Engine = name
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

func (series) report(env workload.Environment, results []*workload.Result) renderer {
	return &workload.Report{Env: env, Results: results}
}

// workloadConfig is the workload every engine of the run gets.
func workloadConfig(s *settings) workload.Config {
	return workload.Config{
		Points: s.points,
		Series: s.series,
		Batch:  s.batch,
		Seed:   s.seed,
		Settle: s.settle,
	}
}
