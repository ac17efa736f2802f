package mixed

import (
	"flag"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
	"github.com/tsbench/storage/workload/results"
	"github.com/tsbench/storage/workload/suite"
)

func init() { suite.Register("mixed", mixedSuite{}) }

// mixedSuite is the workload mixed.
type mixedSuite struct{}

func (mixedSuite) Info() suite.Info {
	return suite.Info{About: "the mixed workload",
		Shared: []string{suite.FlagPoints, suite.FlagSeries, suite.FlagBatch, suite.FlagSeed, suite.FlagValues, suite.FlagValueEncoding, suite.FlagPercentiles, suite.FlagDataset}, Datasets: true, Ordered: true, ResultKey: "operations"}
}

// Defaults are the zero Config: Flags sets the load's defaults
// (DefineLoad), Configure the command's settings.
func (mixedSuite) Defaults() Config { return Config{} }

// Flags set the config's own fields; its sizes (-points is the preload),
// seed and percentiles are the command's (suite.Common), which Configure
// copies in.
func (mixedSuite) Flags(fs *flag.FlagSet, s *Config) {
	querymix.DefineLoad(fs, &s.Writers, &s.Readers, &s.Duration, &s.Rate, &s.Mix, &s.Window)
	querymix.DefineWarmup(fs, &s.Warmup)
	fs.Func("skew", "the `skew` of the series queries pick: uniform, zipfian (exponent 0.99, series 0 the hottest) or an exponent below 1 (default uniform)", func(v string) error {
		k, err := ParseSkew(v)
		s.Skew = k
		return suite.Unprefixed(err, ErrInvalidConfig)
	})
}

// Configure makes -points the preload, none unless given, copies the
// command's settings in and checks the config.
func (mixedSuite) Configure(s *Config, c *suite.Common, given suite.Given) error {
	if !given("points") {
		c.Points = 0
	}
	if c.Values.Kind == points.Imported {
		// The file's series replace -series; its first points are
		// the preload.
		sv, err := c.Values.Survey()
		if err != nil {
			return suite.Invalidf("-values %v", suite.Unprefixed(err, points.ErrBadValues))
		}
		c.Values.Import, c.Series = &sv, sv.Series
	}
	s.Series, s.Batch, s.Points, s.Seed, s.Values = c.Series, c.Batch, c.Points, c.Seed, c.Values
	s.Percentiles = c.Percentiles
	switch {
	case given("rate") && s.Rate <= 0:
		return suite.Invalidf("-rate %g: give a positive number of points per second, or leave -rate out for no cap", s.Rate)
	case c.Batch > points.MaxBatch:
		return suite.Invalidf("-batch %d is above the maximum of %d points per batch", c.Batch, points.MaxBatch)
	case c.Dataset != "" && c.Points == 0:
		return suite.Invalidf("-dataset keeps the preload, and there is none: add -points, such as -points 1M, or drop -dataset")
	}
	return suite.Invalid(s.Validate(), ErrInvalidConfig)
}

func (mixedSuite) Start(s Config, options map[string]any) *Result {
	return &Result{Header: harness.Header{Options: options}, Config: s}
}

// Run runs the workload on the engine, in a clone of the dataset with
// -dataset and one saved (suite.RunOnDataset).
func (su mixedSuite) Run(cfg Config, e *suite.Engine) (*Result, error) {
	cfg.Progress, cfg.Log, cfg.Distributions = e.Progress, e.Progress, e.Distributions
	return suite.RunOnDataset(e, cfg.sizes(), su.Fields, func(r *suite.DatasetRun) (*Result, error) {
		cfg.Preloaded, cfg.AfterPreload = r.Use != nil, r.Save
		return Run(r.DB, e.Dir, cfg)
	})
}

func (mixedSuite) Fields(res *Result) suite.Fields {
	return suite.Fields{Header: &res.Header, Err: &res.Error, Dataset: &res.Dataset}
}

func (mixedSuite) Failure(res *Result) string { return res.Error }

func (mixedSuite) Report(runID string, env harness.Environment, rs []*Result) report.Renderer {
	return &Report{Schema: results.SchemaVersion, RunID: runID, Env: env, Results: rs}
}

// Samples and CompareMetrics make the workload's reports ones
// that benchmark-storage compare reads (suite.Comparer).

func (mixedSuite) Samples(results []*Result) []report.Samples {
	return Report{Results: results}.Samples()
}

func (mixedSuite) CompareMetrics() []report.CompareMetric { return CompareMetrics }
