package timeseries

import (
	"flag"
	"fmt"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/results"
	"github.com/tsbench/storage/workload/suite"
)

func init() { suite.Register("ts", tsSuite{}) }

// tsSuite is the time-series workload, ts, the default.
type tsSuite struct{}

func (tsSuite) Info() suite.Info {
	return suite.Info{About: "the time-series workload", Aliases: []string{"timeseries"},
		Shared: []string{suite.FlagPoints, suite.FlagSeries, suite.FlagBatch, suite.FlagSeed, suite.FlagValues, suite.FlagValueEncoding, suite.FlagInterval, suite.FlagPercentiles, suite.FlagCold, suite.FlagDataset}, Datasets: true, Ordered: true, Stops: true, ResultKey: "steps"}
}

// Defaults are a Config without sizes, which the command's settings
// give (Configure).
func (tsSuite) Defaults() Config { return Config{} }

// Flags set the config's own fields; its sizes, seed, intervals,
// percentiles, -cold and dataset are the command's (suite.Common), which Configure copies in.
func (tsSuite) Flags(fs *flag.FlagSet, s *Config) {
	fs.BoolVar(&s.Settle, "settle", false, "after each step, wait for the engine's background work (compactions, flushes) to finish and report that time separately, so that deferred work is charged to the step that caused it")
	fs.BoolVar(&s.ReuseIterator, "reuse-iterator", false, "query every series of a query step through one iterator given new bounds (the engine's SetBounds, or a close and reopen where it has none), as a time-series database would; without it each series gets a new iterator, as in the 2014 tool, whose query times stay comparable; the report's first line says when it was on")
}

func (tsSuite) Configure(s *Config, c *suite.Common, _ suite.Given) error {
	if c.Values.Kind == points.Imported {
		// The file's sizes replace -points and -series, the dataset's
		// too; a batch may hold several points of a series.
		sv, err := c.Values.Survey()
		if err != nil {
			return suite.Invalidf("-values %v", suite.Unprefixed(err, points.ErrBadValues))
		}
		c.Values.Import = &sv
		c.Points, c.Series, c.Batch = sv.Points, sv.Series, min(c.Batch, sv.Points)
	}
	s.Points, s.Series, s.Batch, s.Seed, s.Values, s.Interval = c.Points, c.Series, c.Batch, c.Seed, c.Values, c.Interval
	s.Percentiles, s.Cold = c.Percentiles, c.Cold
	switch {
	case c.Series > c.Points:
		return suite.Invalidf("-series %s is more than -points %s: every series needs a point; lower -series or raise -points", harness.Count(c.Series), harness.Count(c.Points))
	case c.Batch > points.MaxBatch:
		return suite.Invalidf("-batch %d is above the maximum of %d points per batch", c.Batch, points.MaxBatch)
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("%w: %w", suite.ErrInvalid, err)
	}
	return nil
}

func (tsSuite) Start(s Config, options map[string]any) *Result {
	return &Result{Header: harness.Header{Options: options}, Config: s}
}

// Run runs the steps on the engine, in a clone of the dataset with
// -dataset and one saved (suite.RunOnDataset). After each step it sends
// the result so far, which the parent reports if the child is stopped.
func (su tsSuite) Run(cfg Config, e *suite.Engine) (*Result, error) {
	cfg.Progress, cfg.Log, cfg.Stop, cfg.Distributions = e.Progress, e.Progress, e.Stop, e.Distributions
	return suite.RunOnDataset(e, cfg.sizes(), su.Fields, func(r *suite.DatasetRun) (*Result, error) {
		cfg.Preloaded, cfg.AfterWrite = r.Use != nil, r.Save
		cfg.StepDone = func(res *Result) {
			res.Options, res.Dataset = e.Effective, r.Use
			e.Progress.Partial(res)
		}
		return Run(r.DB, e.Dir, cfg)
	})
}

func (tsSuite) Fields(res *Result) suite.Fields {
	return suite.Fields{Header: &res.Header, Err: &res.Error, Dataset: &res.Dataset}
}

// Failure is the error that made an engine's run fail: its own or its
// first failed step's.
func (tsSuite) Failure(res *Result) string {
	return suite.FirstFailure(res.Error, res.Steps, func(st Step) (string, string) { return st.Name, st.Error })
}

func (tsSuite) Report(runID string, env harness.Environment, rs []*Result) report.Renderer {
	return &Report{Schema: results.SchemaVersion, RunID: runID, Env: env, Results: rs}
}

func (tsSuite) JVM(s Config, c suite.Common) error {
	if s.Settle || s.ReuseIterator || s.Cold || len(s.Percentiles) > 0 || c.Dataset != "" || s.Values.Note() != "" {
		return suite.Invalidf("the JVM engines run the time-series workload without -settle, -reuse-iterator, -cold, -percentiles, -values, -value-encoding and -dataset: drop them")
	}
	return nil
}

// Samples and CompareMetrics make the workload's reports ones
// that benchmark-storage compare reads (suite.Comparer).

func (tsSuite) Samples(results []*Result) []report.Samples { return Report{Results: results}.Samples() }

func (tsSuite) CompareMetrics() []report.CompareMetric { return CompareMetrics }
