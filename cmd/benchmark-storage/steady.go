package main

import (
	"errors"
	"flag"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/mixed"
	"github.com/tsbench/storage/workload/steady"
)

// workloadSteady is -workload steady.
const workloadSteady = "steady"

// steadyFlags are the steady-state workload's settings; with -rate,
// -duration, -writers, -readers, -mix and -window, which it shares with
// the mixed workload and checkSteadyMode copies in, a job carries them to
// the child.
type steadyFlags struct {
	Rate       float64        `json:"rate"`
	Duration   time.Duration  `json:"duration_ns"`
	Writers    int            `json:"writers"`
	Readers    int            `json:"readers"`
	Mix        mixed.Mix      `json:"mix"`
	Window     time.Duration  `json:"window_ns"`
	Speedup    float64        `json:"speedup"`
	Retention  time.Duration  `json:"retention_ns"`
	Method     steady.Method  `json:"method"`
	Bucket     time.Duration  `json:"bucket_ns"`
	Late       float64        `json:"late"`
	LateWindow time.Duration  `json:"late_window_ns"`
	OutOfOrder float64        `json:"out_of_order"`
	Churn      float64        `json:"churn"`
	ChurnEvery time.Duration  `json:"churn_every_ns"`
	FindRate   bool           `json:"find_rate,omitempty"`
	Targets    steady.Targets `json:"targets"`
}

// steadyOnlyFlags are the flags only -workload steady takes.
var steadyOnlyFlags = []string{"speedup", "retention", "retention-method", "bucket", "late", "late-window", "out-of-order", "churn", "churn-every", "find-rate", "max-write-p99", "max-query-p99"}

// steadyRefuses are the flags -workload steady does not take.
var steadyRefuses = append([]string{"settle", "reuse-iterator", "kills", "benchmarks", "dataset", "skew", "points"}, microOnlyFlags...)

func (f *steadyFlags) define(fs *flag.FlagSet) {
	fs.Float64Var(&f.Speedup, "speedup", steady.DefaultSpeedup, "with -workload steady, how many `times` faster data time runs than wall time, so that a -retention of minutes expires data in a short run")
	fs.DurationVar(&f.Retention, "retention", 0, "with -workload steady, the `window` of data time kept; older data is deleted as the data advances (default a third of the run's data time)")
	f.Method = steady.MethodDelete
	fs.Func("retention-method", "with -workload steady, the `method` that deletes expired data: delete (a DeleteRange per series), bucket (time-bucket-major keys, one DeleteRange per bucket) or shards (an engine per time shard, closed and deleted whole) (default delete)", func(v string) error {
		m, err := steady.ParseMethod(v)
		f.Method = m
		return unprefixed(err, steady.ErrInvalidConfig)
	})
	fs.DurationVar(&f.Bucket, "bucket", 0, "with -workload steady, the data time of a bucket, a shard and a retention step (default -retention/10)")
	fs.Float64Var(&f.Late, "late", 0, "with -workload steady, the `fraction` of batches sent late, by up to -late-window of data time")
	fs.DurationVar(&f.LateWindow, "late-window", 0, "with -workload steady, how late a late batch is at most, in data time (default 1m, or -retention/4 if shorter)")
	fs.Float64Var(&f.OutOfOrder, "out-of-order", 0, "with -workload steady, the `fraction` of each batch's points put out of order")
	fs.Float64Var(&f.Churn, "churn", 0, "with -workload steady, the `fraction` of series replaced by new ones every -churn-every of data time")
	fs.DurationVar(&f.ChurnEvery, "churn-every", 0, "with -workload steady, the data time between replacements of series (default 1m)")
	fs.BoolVar(&f.FindRate, "find-rate", false, "with -workload steady, search the highest rate each engine sustains for -duration, from -rate up (doubling, then halving, then narrowing to within 10%), each probe on a fresh store, and report it with the signal that stopped it")
	fs.DurationVar(&f.Targets.MaxWriteP99, "max-write-p99", steady.DefaultMaxWriteP99, "with -find-rate, the highest write p99 (from the intended starts) a sustained rate may have")
	fs.DurationVar(&f.Targets.MaxQueryP99, "max-query-p99", steady.DefaultMaxQueryP99, "with -find-rate, the highest query p99 a sustained rate may have")
}

// refuseSteadyFlags refuses the steady workload's own flags in any other
// workload.
func refuseSteadyFlags(s *settings, set map[string]bool) error {
	if s.workload == workloadSteady {
		return nil
	}
	for _, n := range steadyOnlyFlags {
		if set[n] {
			return inputErrorf("-%s is a setting of the steady-state workload: add -workload steady", n)
		}
	}
	return nil
}

// checkSteadyMode refuses what the steady workload does not take, takes
// in the settings it shares with the mixed workload, and checks them all.
func checkSteadyMode(s *settings, set map[string]bool) error {
	if err := refuseFlags(s, set, steadyRefuses, "-rate, -duration, -writers, -readers, -mix, -window, -series, -batch and -"+strings.Join(steadyOnlyFlags, ", -")); err != nil {
		return err
	}
	if (set["max-write-p99"] || set["max-query-p99"]) && !s.steady.FindRate {
		return inputErrorf("-max-write-p99 and -max-query-p99 are targets of the rate search: add -find-rate")
	}
	if s.steady.Targets.MaxWriteP99 <= 0 || s.steady.Targets.MaxQueryP99 <= 0 {
		return inputErrorf("-max-write-p99 %v, -max-query-p99 %v: give positive durations such as 100ms", s.steady.Targets.MaxWriteP99, s.steady.Targets.MaxQueryP99)
	}
	if set["rate"] && s.mixed.Rate <= 0 {
		return inputErrorf("-rate %g: give a positive number of points per second, such as -rate 100k", s.mixed.Rate)
	}
	m := s.mixed
	f := &s.steady
	f.Rate, f.Duration, f.Writers, f.Readers, f.Mix, f.Window = m.Rate, m.Duration, m.Writers, m.Readers, m.Mix, m.Window
	return invalidConfig(steadyConfig(s).Validate(), steady.ErrInvalidConfig)
}

// steadyConfig is the steady workload every engine of the run gets.
func steadyConfig(s *settings) steady.Config {
	f := s.steady
	return steady.Config{
		Duration: f.Duration, Rate: f.Rate, Writers: f.Writers, Readers: f.Readers,
		Series: s.series, Batch: s.batch, Speedup: f.Speedup, Retention: f.Retention, Method: f.Method,
		BucketWidth: f.Bucket, Late: f.Late, LateWindow: f.LateWindow, OutOfOrder: f.OutOfOrder,
		Churn: f.Churn, ChurnEvery: f.ChurnEvery, Mix: f.Mix, Window: f.Window,
		Interval: max(s.interval, 0), Seed: s.seed,
		// Validate wants an opener for shards; the child gives the real one.
		Open: func(string) (engine.Engine, error) { return nil, errors.New("no engine") },
	}
}

// steadySuite is the steady-state workload (-workload steady).
type steadySuite struct{}

func (steadySuite) check(s *settings) error { return steadyConfig(s).Validate() }

func (steadySuite) start(s *settings, name string) *steady.Result {
	cfg := steadyConfig(s)
	cfg.Open = nil
	return &steady.Result{Header: harness.Header{Options: s.effective[name]}, Config: cfg.WithDefaults()}
}

// run opens the engine, or with the shards method one per shard under
// the data directory, runs the workload and closes it. A failed Close
// fails the run.
func (steadySuite) run(s *settings, name string, opts engine.Options, p *progress) (res *steady.Result, err error) {
	cfg := steadyConfig(s)
	cfg.Progress, cfg.Log = p, p
	cfg.Open = func(dir string) (engine.Engine, error) { return engine.Open(name, dir, &opts) }
	var db engine.Engine
	if s.steady.FindRate {
		res, err = steady.FindRate(s.child.dir, cfg, s.steady.Targets)
		if res != nil {
			res.Options, err = effective(name, opts, err)
		}
		return res, err
	}
	if cfg.Method != steady.MethodShards {
		if db, err = engine.Open(name, s.child.dir, &opts); err != nil {
			return nil, err
		}
		defer closeEngine(db, &err)
	}
	res, err = steady.Run(db, s.child.dir, cfg)
	if res != nil {
		err = recordEngine(&res.Header, db, name, opts, err)
	}
	return res, err
}

func (steadySuite) fields(res *steady.Result) resultFields {
	return resultFields{header: &res.Header, err: &res.Error}
}

func (steadySuite) failure(res *steady.Result) string { return res.Error }

func (steadySuite) report(runID string, env harness.Environment, results []*steady.Result) renderer {
	return &steady.Report{RunID: runID, Env: env, Results: results}
}
