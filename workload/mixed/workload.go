package mixed

import (
	"flag"
	"time"

	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/suite"
)

func init() { suite.Register("mixed", mixedSuite{}) }

// Load are the settings of writers and readers running together, which
// the mixed and steady workloads share, flags and help text alike.
type Load struct {
	Writers  int           `json:"writers"`
	Readers  int           `json:"readers"`
	Duration time.Duration `json:"duration_ns"`
	Rate     float64       `json:"rate"`
	Mix      Mix           `json:"mix"`
	Window   time.Duration `json:"window_ns"`
}

// DefaultLoad is the load before any flag: one writer and one reader for
// 10 s, long enough for every query kind to run many times, short enough
// for a bare run of every engine.
func DefaultLoad() Load {
	return Load{Writers: 1, Readers: 1, Duration: 10 * time.Second, Mix: DefaultMix, Window: DefaultWindow}
}

// Define defines the load's flags on fs, with l's values as defaults.
func (l *Load) Define(fs *flag.FlagSet) {
	fs.IntVar(&l.Writers, "writers", l.Writers, "with -workload mixed, `count` of writers ingesting points, each owning an equal share of the series")
	fs.IntVar(&l.Readers, "readers", l.Readers, "with -workload mixed, `count` of readers querying while the writers write")
	fs.DurationVar(&l.Duration, "duration", l.Duration, "with -workload mixed, how long writers and readers run, after the preload (-points)")
	fs.Var((*suite.Rate)(&l.Rate), "rate", "with -workload mixed, cap on the `points` written per second over all writers: 40k, 1.5M, 250000 (default: no cap)")
	fs.Func("mix", "with -workload mixed, `weights` of the query kinds readers draw: kind=weight,... of last, recent, range, scan, multi (default "+DefaultMix.String()+")", func(v string) error {
		mx, err := ParseMix(v)
		l.Mix = mx
		return suite.Unprefixed(err, ErrInvalidConfig)
	})
	fs.DurationVar(&l.Window, "window", l.Window, "with -workload mixed, how much recent data (data time, a point every 10s per series) a recent or multi query reads")
}

// Settings are the mixed workload's own settings: what its flags set,
// and what a job carries to the child. Its sizes (-points is the
// preload), seed and dataset are the command's (suite.Common).
type Settings struct {
	Load
	Skew float64 `json:"skew"`
}

// Config is the run of s with the shared settings c.
func (s Settings) Config(c suite.Common) Config {
	return Config{
		Duration: s.Duration, Writers: s.Writers, Readers: s.Readers,
		Series: c.Series, Batch: c.Batch, Points: c.Points, Rate: s.Rate,
		Mix: s.Mix, Window: s.Window, Skew: s.Skew, Seed: c.Seed,
	}
}

// mixedSuite is the workload mixed.
type mixedSuite struct{}

func (mixedSuite) Info() suite.Info {
	return suite.Info{About: "the mixed workload", Add: "add -workload mixed", Datasets: true, Ordered: true}
}

func (mixedSuite) Defaults() Settings { return Settings{Load: DefaultLoad()} }

func (mixedSuite) Flags(fs *flag.FlagSet, s *Settings) {
	s.Load.Define(fs)
	fs.Func("skew", "with -workload mixed, how queries pick series: uniform, zipfian (exponent 0.99, series 0 the hottest) or an exponent below 1 (default uniform)", func(v string) error {
		k, err := ParseSkew(v)
		s.Skew = k
		return suite.Unprefixed(err, ErrInvalidConfig)
	})
}

// refused are the flags -workload mixed refuses with a message of
// its own.
var refused = []string{"settle", "reuse-iterator", "kills", "num", "value-size", "key", "order", "compression-ratio"}

func (mixedSuite) Refuse(flag string) error {
	return suite.Refuse(flag, refused, "mixed", "-writers, -readers, -duration, -rate, -mix, -window, -skew, -points (the preload), -series and -batch")
}

// Configure makes -points the preload, none unless given, and checks
// the settings.
func (mixedSuite) Configure(s *Settings, c *suite.Common, given suite.Given) error {
	if !given("points") {
		c.Points = 0
	}
	switch {
	case given("rate") && s.Rate <= 0:
		return suite.Invalidf("-rate %g: give a positive number of points per second, or leave -rate out for no cap", s.Rate)
	case c.Batch > points.MaxBatch:
		return suite.Invalidf("-batch %d is above the maximum of %d points per batch", c.Batch, points.MaxBatch)
	case c.Dataset != "" && c.Points == 0:
		return suite.Invalidf("-dataset keeps the preload, and there is none: add -points, such as -points 1M, or drop -dataset")
	}
	return suite.Invalid(s.Config(*c).Validate(), ErrInvalidConfig)
}

func (mixedSuite) Start(s Settings, c suite.Common, options map[string]any) *Result {
	return &Result{Header: harness.Header{Options: options}, Config: s.Config(c)}
}

// Run runs the workload on the engine, in a clone of the dataset with
// -dataset and one saved (suite.RunOnDataset).
func (su mixedSuite) Run(s Settings, c suite.Common, e *suite.Engine) (*Result, error) {
	cfg := s.Config(c)
	cfg.Progress, cfg.Log = e.Progress, e.Progress
	return suite.RunOnDataset(e, c, su.Fields, func(r *suite.DatasetRun) (*Result, error) {
		cfg.Preloaded, cfg.AfterPreload = r.Use != nil, r.Save
		return Run(r.DB, e.Dir, cfg)
	})
}

func (mixedSuite) Fields(res *Result) suite.Fields {
	return suite.Fields{Header: &res.Header, Err: &res.Error, Dataset: &res.Dataset}
}

func (mixedSuite) Failure(res *Result) string { return res.Error }

func (mixedSuite) Report(runID string, env harness.Environment, results []*Result) suite.Renderer {
	return &Report{RunID: runID, Env: env, Results: results}
}
