package main

import (
	"flag"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/mixed"
)

// mixedFlags are the mixed workload's settings (-workload mixed); a job
// carries them to the child as they are.
type mixedFlags struct {
	Writers  int           `json:"writers"`
	Readers  int           `json:"readers"`
	Duration time.Duration `json:"duration_ns"`
	Rate     float64       `json:"rate"`
	Mix      mixed.Mix     `json:"mix"`
	Window   time.Duration `json:"window_ns"`
	Skew     float64       `json:"skew"`
}

// Defaults of the mixed flags: one writer and one reader for 10 s, long
// enough for every query kind to run many times, short enough for a bare
// run of every engine.
const (
	defaultWriters  = 1
	defaultReaders  = 1
	defaultDuration = 10 * time.Second
)

// mixedOnlyFlags are the flags only -workload mixed takes.
var mixedOnlyFlags = []string{"writers", "readers", "duration", "rate", "mix", "window", "skew"}

// mixedRefuses are the flags -workload mixed does not take.
var mixedRefuses = append([]string{"settle", "reuse-iterator", "kills", "benchmarks"}, microOnlyFlags...)

func (m *mixedFlags) define(fs *flag.FlagSet) {
	m.Writers, m.Readers, m.Duration = defaultWriters, defaultReaders, defaultDuration
	fs.IntVar(&m.Writers, "writers", defaultWriters, "with -workload mixed, `count` of writers ingesting points, each owning an equal share of the series")
	fs.IntVar(&m.Readers, "readers", defaultReaders, "with -workload mixed, `count` of readers querying while the writers write")
	fs.DurationVar(&m.Duration, "duration", defaultDuration, "with -workload mixed, how long writers and readers run, after the preload (-points)")
	fs.Var((*rateValue)(&m.Rate), "rate", "with -workload mixed, cap on the `points` written per second over all writers: 40k, 1.5M, 250000 (default: no cap)")
	m.Mix = mixed.DefaultMix
	fs.Func("mix", "with -workload mixed, `weights` of the query kinds readers draw: kind=weight,... of last, recent, range, scan, multi (default "+mixed.DefaultMix.String()+")", func(v string) error {
		mx, err := mixed.ParseMix(v)
		m.Mix = mx
		return unprefixed(err, mixed.ErrInvalidConfig)
	})
	m.Window = mixed.DefaultWindow
	fs.DurationVar(&m.Window, "window", mixed.DefaultWindow, "with -workload mixed, how much recent data (data time, a point every 10s per series) a recent or multi query reads")
	fs.Func("skew", "with -workload mixed, how queries pick series: uniform, zipfian (exponent 0.99, series 0 the hottest) or an exponent below 1 (default uniform)", func(v string) error {
		k, err := mixed.ParseSkew(v)
		m.Skew = k
		return unprefixed(err, mixed.ErrInvalidConfig)
	})
}

// checkMixedMode refuses what the mixed workload does not take and checks
// its settings: -points is the preload, none unless given.
func checkMixedMode(s *settings, set map[string]bool) error {
	if err := refuseFlags(s, set, mixedRefuses, "-writers, -readers, -duration, -rate, -mix, -window, -skew, -points (the preload), -series and -batch"); err != nil {
		return err
	}
	if !set["points"] {
		s.points = 0
	}
	switch {
	case set["rate"] && s.mixed.Rate <= 0:
		return inputErrorf("-rate %g: give a positive number of points per second, or leave -rate out for no cap", s.mixed.Rate)
	case s.batch > maxSeriesBatch:
		return inputErrorf("-batch %d is above the maximum of %d points per batch", s.batch, maxSeriesBatch)
	case s.dataset != "" && s.points == 0:
		return inputErrorf("-dataset keeps the preload, and there is none: add -points, such as -points 1M, or drop -dataset")
	}
	return invalidConfig(mixedConfig(s).Validate(), mixed.ErrInvalidConfig)
}

// mixedConfig is the mixed workload every engine of the run gets.
func mixedConfig(s *settings) mixed.Config {
	m := s.mixed
	return mixed.Config{
		Duration: m.Duration, Writers: m.Writers, Readers: m.Readers,
		Series: s.series, Batch: s.batch, Points: s.points, Rate: m.Rate,
		Mix: m.Mix, Window: m.Window, Skew: m.Skew, Seed: s.seed,
	}
}

// mixedSuite is the mixed workload (-workload mixed).
type mixedSuite struct{}

func (mixedSuite) check(s *settings) error { return mixedConfig(s).Validate() }

func (mixedSuite) start(s *settings, name string) *mixed.Result {
	return &mixed.Result{Header: harness.Header{Options: s.effective[name]}, Config: mixedConfig(s)}
}

// run runs the workload on the engine, in a clone of the dataset with
// -dataset and one saved (runOnDataset).
func (su mixedSuite) run(s *settings, name string, opts engine.Options, p *progress) (*mixed.Result, error) {
	cfg := mixedConfig(s)
	cfg.Progress, cfg.Log = p, p
	return runOnDataset(su, s, name, opts, p, func(r *datasetRun) (*mixed.Result, error) {
		cfg.Preloaded, cfg.AfterPreload = r.use != nil, r.save
		return mixed.Run(r.db, s.child.dir, cfg)
	})
}

func (mixedSuite) fields(res *mixed.Result) resultFields {
	return resultFields{header: &res.Header, err: &res.Error, dataset: &res.Dataset}
}

func (mixedSuite) failure(res *mixed.Result) string { return res.Error }

func (mixedSuite) report(runID string, env harness.Environment, results []*mixed.Result) renderer {
	return &mixed.Report{RunID: runID, Env: env, Results: results}
}
