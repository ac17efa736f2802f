package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/dataset"
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
		return unprefixedMixed(err)
	})
	m.Window = mixed.DefaultWindow
	fs.DurationVar(&m.Window, "window", mixed.DefaultWindow, "with -workload mixed, how much recent data (data time, a point every 10s per series) a recent or multi query reads")
	fs.Func("skew", "with -workload mixed, how queries pick series: uniform, zipfian (exponent 0.99, series 0 the hottest) or an exponent below 1 (default uniform)", func(v string) error {
		k, err := mixed.ParseSkew(v)
		m.Skew = k
		return unprefixedMixed(err)
	})
}

// unprefixedMixed drops the package prefix from a mixed error.
func unprefixedMixed(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), mixed.ErrInvalidConfig.Error()+": "))
}

// checkMixedMode refuses what the mixed workload does not take and checks
// its settings: -points is the preload, none unless given.
func checkMixedMode(s *settings, set map[string]bool) error {
	for _, n := range mixedRefuses {
		if set[n] {
			return inputErrorf("-%s is not a setting of -workload mixed, which takes -writers, -readers, -duration, -rate, -mix, -window, -skew, -points (the preload), -series and -batch: drop -%s", n, n)
		}
	}
	if s.format == "gobench" {
		return inputErrorf("-format gobench is for the micro benchmarks: choose table, markdown, csv, json or html")
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
	if err := mixedConfig(s).Validate(); err != nil {
		return inputErrorf("%v", unprefixedMixed(err))
	}
	return nil
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

var _ suite[mixed.Result] = mixedSuite{}

func (mixedSuite) check(s *settings) error { return mixedConfig(s).Validate() }

// run opens the engine (in a clone of the dataset, with -dataset and one
// saved), runs the workload and closes it. A failed Close fails the run.
func (mixedSuite) run(s *settings, name string, opts engine.Options, p *progress) (res *mixed.Result, err error) {
	cfg := mixedConfig(s)
	cfg.Progress, cfg.Log = p, p
	r, err := openRun(s, name, &opts, p)
	if err != nil {
		return nil, err
	}
	defer closeEngine(r.db, &err)
	cfg.Preloaded, cfg.AfterPreload = r.use != nil, r.save
	res, err = mixed.Run(r.db, s.child.dir, cfg)
	if res != nil {
		res.Dataset = r.use
		err = r.record(&res.Header, name, opts, err)
	}
	return res, err
}

// start is a result with the run's parameters, for an engine that
// reports none.
func (mixedSuite) start(s *settings, name string) *mixed.Result {
	return &mixed.Result{Header: harness.Header{Options: s.effective[name]}, Config: mixedConfig(s)}
}

func (mixedSuite) label(res *mixed.Result, name string, repeat int, err error) {
	res.Engine, res.Repeat = name, repeat
	if res.Version == "" {
		res.Version = engine.Version(name)
	}
	if res.Error == "" {
		res.Error = errorText(err)
	}
}

func (mixedSuite) failure(res *mixed.Result) string { return res.Error }

func (mixedSuite) fail(res *mixed.Result, why string) { res.Error = why }

func (mixedSuite) report(runID string, env harness.Environment, results []*mixed.Result) renderer {
	return &mixed.Report{RunID: runID, Env: env, Results: results}
}

// reusedNote is the line the parent prints for a run that started from a
// dataset.
func reusedNote(r *dataset.Use) string {
	if r == nil || !r.Reused {
		return ""
	}
	return fmt.Sprintf("reused the dataset %s (written %s), cloned by %s in %s", r.Path, r.Created.Format(time.DateTime), r.Method, roundDuration(r.Clone))
}

func (mixedSuite) reused(res *mixed.Result) string { return reusedNote(res.Dataset) }
