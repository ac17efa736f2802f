package steady

import (
	"errors"
	"flag"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
	"github.com/tsbench/storage/workload/results"
	"github.com/tsbench/storage/workload/suite"
)

func init() { suite.Register("steady", steadySuite{}) }

// Settings are the steady-state workload's settings as its flags set
// them and a job carries them to the child: the run's Config, complete
// once Configure has copied the command's sizes, seed and interval in
// (suite.Common), and the rate search.
type Settings struct {
	Config
	FindRate bool    `json:"find_rate,omitempty"`
	Targets  Targets `json:"targets"`
}

// steadySuite is the workload
type steadySuite struct{}

func (steadySuite) Info() suite.Info {
	return suite.Info{About: "the steady-state workload",
		Shared: []string{suite.FlagSeries, suite.FlagBatch, suite.FlagSeed, suite.FlagValues, suite.FlagValueEncoding, suite.FlagInterval, suite.FlagPercentiles}, Ordered: true, ResultKey: "scheduled_points"}
}

// Defaults are the speedup, method and rate search's targets; Flags sets
// the load's defaults, shared with the mixed workload (querymix.DefineLoad).
func (steadySuite) Defaults() Settings {
	return Settings{
		Config:  Config{Speedup: DefaultSpeedup, Method: MethodDelete},
		Targets: Targets{MaxWriteP99: DefaultMaxWriteP99, MaxQueryP99: DefaultMaxQueryP99},
	}
}

func (steadySuite) Flags(fs *flag.FlagSet, s *Settings) {
	querymix.DefineLoad(fs, &s.Writers, &s.Readers, &s.Duration, &s.Rate, &s.Mix, &s.Window)
	querymix.DefineWarmup(fs, &s.Warmup)
	fs.Float64Var(&s.Speedup, "speedup", s.Speedup, "how many `times` faster data time runs than wall time, so that a -retention of minutes expires data in a short run")
	fs.DurationVar(&s.Retention, "retention", 0, "the `window` of data time kept; older data is deleted as the data advances (default a third of the run's data time)")
	fs.Func("retention-method", "the `method` that deletes expired data: delete (a DeleteRange per series), bucket (time-bucket-major keys, one DeleteRange per bucket), shards (an engine per time shard, closed and deleted whole) or ttl (the engine's own expiry of -retention/-speedup in wall time, on an engine that has one) (default delete)", func(v string) error {
		m, err := ParseMethod(v)
		s.Method = m
		return suite.Unprefixed(err, ErrInvalidConfig)
	})
	fs.DurationVar(&s.BucketWidth, "bucket", 0, "the data time of a bucket, a shard and a retention step (default -retention/10)")
	fs.Float64Var(&s.Late, "late", 0, "the `fraction` of batches sent late, by up to -late-window of data time")
	fs.DurationVar(&s.LateWindow, "late-window", 0, "how late a late batch is at most, in data time (default 1m, or -retention/4 if shorter)")
	fs.Float64Var(&s.OutOfOrder, "out-of-order", 0, "the `fraction` of each batch's points put out of order")
	fs.Float64Var(&s.Churn, "churn", 0, "the `fraction` of series replaced by new ones every -churn-every of data time")
	fs.DurationVar(&s.ChurnEvery, "churn-every", 0, "the data time between replacements of series (default 1m)")
	fs.BoolVar(&s.FindRate, "find-rate", false, "search the highest rate each engine sustains for -duration, from -rate up (doubling, then halving, then narrowing to within 10%), each probe on a fresh store, and report it with the signal that stopped it")
	fs.DurationVar(&s.Targets.MaxWriteP99, "max-write-p99", s.Targets.MaxWriteP99, "with -find-rate, the highest write p99 (from the intended starts) a sustained rate may have")
	fs.DurationVar(&s.Targets.MaxQueryP99, "max-query-p99", s.Targets.MaxQueryP99, "with -find-rate, the highest query p99 a sustained rate may have")
}

func (steadySuite) Configure(s *Settings, c *suite.Common, given suite.Given) error {
	if (given("max-write-p99") || given("max-query-p99")) && !s.FindRate {
		return suite.Invalidf("-max-write-p99 and -max-query-p99 are targets of the rate search: add -find-rate")
	}
	if s.Targets.MaxWriteP99 <= 0 || s.Targets.MaxQueryP99 <= 0 {
		return suite.Invalidf("-max-write-p99 %v, -max-query-p99 %v: give positive durations such as 100ms", s.Targets.MaxWriteP99, s.Targets.MaxQueryP99)
	}
	if given("rate") && s.Rate <= 0 {
		return suite.Invalidf("-rate %g: give a positive number of points per second, such as -rate 100k", s.Rate)
	}
	if c.Values.Kind == points.Imported {
		// The file's series replace -series, and its timestamps are the
		// data time: -speedup follows from them and the rate.
		sv, err := c.Values.Survey()
		if err != nil {
			return suite.Invalidf("-values %v", suite.Unprefixed(err, points.ErrBadValues))
		}
		if given("speedup") {
			return suite.Invalidf("-speedup with -values %s: a file's data time is its own timestamps, at -rate: leave -speedup out", c.Values.File)
		}
		c.Values.Import = &sv
		c.Series, c.Batch = sv.Series, min(c.Batch, sv.Points)
	}
	s.Series, s.Batch, s.Interval, s.Seed, s.Values = c.Series, c.Batch, max(c.Interval, 0), c.Seed, c.Values
	s.Percentiles = c.Percentiles
	cfg := s.Config
	// Validate wants an opener for shards; the child gives the real one.
	cfg.Open = func(string) (engine.Engine, error) { return nil, errors.New("no engine") }
	if err := cfg.Validate(); err != nil || !cfg.imported() {
		return suite.Invalid(err, ErrInvalidConfig)
	}
	// What only a pass over the file finds, before anything is created.
	d := cfg.WithDefaults()
	_, _, err := openFile(d, d.batches())
	return suite.Invalid(err, ErrInvalidConfig)
}

// EngineOptions sets the ttl method's expiry in the engine's options,
// which an engine without expiry refuses; the other methods keep the
// points they verify, so they refuse an expiry given in the options.
func (steadySuite) EngineOptions(s Settings, name string, o engine.Options) (engine.Options, error) {
	switch {
	case o.Expiry != 0 && s.Method == MethodTTL:
		return o, suite.Invalidf("expiry %v in the options of %s: -retention-method ttl sets it from -retention and -speedup, so leave it out", o.Expiry, name)
	case o.Expiry != 0:
		return o, suite.Invalidf("expiry %v in the options of %s would drop points that -retention-method %s keeps: leave it out, or use -retention-method ttl", o.Expiry, name, s.Method)
	case s.Method != MethodTTL:
		return o, nil
	}
	o.Expiry = s.Expiry()
	r, err := engine.Resolved(name, &o)
	if err != nil {
		return o, suite.Invalidf("-retention-method ttl: %v; use -retention-method delete, bucket or shards", err)
	}
	return r, nil
}

func (steadySuite) Start(s Settings, options map[string]any) *Result {
	return &Result{Header: harness.Header{Options: options}, Config: s.WithDefaults()}
}

// Run opens the engine, or with the shards method one per shard under
// the data directory, runs the workload and closes it. A failed Close
// fails the run.
func (steadySuite) Run(s Settings, e *suite.Engine) (res *Result, err error) {
	cfg := s.Config
	cfg.Progress, cfg.Log = e.Progress, e.Progress
	cfg.Distributions = e.Distributions
	cfg.Open = e.Open
	if s.FindRate {
		// The probes done so far, which the parent reports if -max-time
		// or Ctrl-C ends the search.
		cfg.Probed = func(res *Result) {
			res.Options = e.Effective
			e.Progress.Partial(res)
		}
		res, err = FindRate(e.Dir, cfg, s.Targets)
		if res != nil {
			res.Options = e.Effective
		}
		return res, err
	}
	var db engine.Engine
	if cfg.Method != MethodShards {
		if db, err = e.Open(e.Dir); err != nil {
			return nil, err
		}
		defer suite.Close(db, &err)
	}
	res, err = Run(db, e.Dir, cfg)
	if res != nil {
		err = e.Record(&res.Header, db, err)
	}
	return res, err
}

func (steadySuite) Fields(res *Result) suite.Fields {
	return suite.Fields{Header: &res.Header, Err: &res.Error}
}

func (steadySuite) Failure(res *Result) string { return res.Error }

func (steadySuite) Report(runID string, env harness.Environment, rs []*Result) report.Renderer {
	return &Report{Schema: results.SchemaVersion, RunID: runID, Env: env, Results: rs}
}
