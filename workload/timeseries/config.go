package timeseries

import (
	"fmt"
	"io"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/suite"
)

// DefaultSettleTimeout is how long Settle waits for an engine's background
// work before giving up and marking the step SettleTimedOut.
const DefaultSettleTimeout = 10 * time.Minute

// Config sizes a run. It has no defaults except SettleTimeout: the caller
// chooses every size, and Validate rejects what cannot run.
type Config struct {
	// Points is N, the number of points the first step writes. The delete
	// and second write steps handle N/2 (rounded down) each.
	Points int64 `json:"points"`
	// Series is how many series the points are spread over, round-robin.
	Series int64 `json:"series"`
	// Batch is the number of points per committed batch; each point of a
	// batch belongs to a different series, so Batch <= Series.
	Batch int64 `json:"batch"`
	// Seed determines every value; the same seed gives the same points.
	Seed uint64 `json:"seed"`
	// Values are what the points' values are and how they are stored
	// (-values, -value-encoding). Default random int64s in protobuf, the
	// 2014 workload's.
	Values points.Values `json:"values,omitzero"`
	// Settle waits after each step until the engine's background work has
	// stopped, and charges that time, CPU and I/O to the step.
	Settle bool `json:"settle"`
	// SettleTimeout bounds each settle wait. Zero means DefaultSettleTimeout.
	SettleTimeout time.Duration `json:"settle_timeout_ns,omitempty"`
	// ReuseIterator makes each query step read every series through one
	// iterator given new bounds per series (engine.SetBounds: the
	// engine's own, or closing and reopening it), rather than a fresh
	// iterator per series as the 2014 tool did. Default false, which
	// keeps the query times comparable with the 2014 figures.
	ReuseIterator bool `json:"reuse_iterator"`
	// Percentiles are latency percentiles (0 < q <= 100) each timed step
	// records beside p50, p99, p99.9 and max (Step.Percentiles), such as
	// 99.99. Default none.
	Percentiles []float64 `json:"percentiles,omitempty"`
	// Distributions keeps each step's whole latency distribution
	// (Step.Distribution) for a latency log: its encoding allocates in
	// proportion to the histogram's buckets, so only when asked
	// (-latency-log, suite.Engine.Distributions). Default false.
	Distributions bool `json:"-"`
	// Cold makes each query step start with the store's files out of the
	// page cache (harness.DropPageCache, outside the step's figures), so
	// that it reads from disk what the engine does not cache itself.
	// Default false: warm, as the 2014 runs were.
	Cold bool `json:"cold,omitempty"`
	// Interval is the length of the first over-time intervals of every
	// step (Step.Intervals); they double in length after every 1,800. At
	// least 200ms; negative records none. Zero means suite.DefaultInterval (1s).
	Interval time.Duration `json:"interval_ns,omitempty"`
	// Preloaded says the store already holds the write step's N points,
	// from a dataset an earlier run wrote (package dataset): Run skips
	// the write step and starts with the query. Default false.
	Preloaded bool `json:"-"`
	// AfterWrite, if not nil, is called once the write step has passed,
	// before the next starts and outside every step's measurements: where
	// a caller saves the dataset. Default nil.
	AfterWrite func() error `json:"-"`
	// StepDone, if not nil, is called after each step with the result so
	// far, for a caller that reports how far a run got if it is stopped.
	// Default nil.
	StepDone func(*Result) `json:"-"`
	// Stop, if not nil, ends the run early when closed: the running step
	// stops after its current batch (a query step after its current
	// series; compaction, one engine call, runs to its end), keeps what
	// it measured so far with an error wrapping ErrStopped, and no later
	// step runs. Default nil.
	Stop <-chan struct{} `json:"-"`
	// Progress receives progress of each step; nil is silent.
	Progress harness.Progress `json:"-"`
	// Log receives warnings, such as a metric the OS does not provide or a
	// settle that timed out; nil discards them.
	Log io.Writer `json:"-"`
}

// Validate reports the first setting Run cannot use, as an error wrapping
// ErrInvalidConfig that says how to fix it.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case c.Points <= 0:
		return bad("points is %d; use a positive number such as -points 1M", c.Points)
	case c.Points > points.MaxPoints:
		return bad("points is %d, above the maximum %d; use fewer -points", c.Points, int64(points.MaxPoints))
	case c.Series <= 0:
		return bad("series is %d; use a positive number such as -series 1000", c.Series)
	case c.Batch <= 0:
		return bad("batch is %d; use a positive number such as -batch 1000", c.Batch)
	case c.Series > c.Points:
		return bad("series (%d) exceeds points (%d): every series needs a point; lower -series or raise -points", c.Series, c.Points)
	case c.Batch > c.Series && c.Values.Import == nil:
		return bad("batch (%d) exceeds series (%d): each point of a batch goes to a different series; lower -batch or raise -series", c.Batch, c.Series)
	case c.Interval > 0 && c.Interval < minInterval:
		return bad("interval is %v; use at least %v, or a negative one for no over-time figures", c.Interval, minInterval)
	case c.SettleTimeout < 0:
		return bad("settle timeout is %v; use a positive duration or 0 for the default", c.SettleTimeout)
	}
	if err := measure.CheckPercentiles(c.Percentiles); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	if err := c.Values.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return nil
}

// minInterval is the shortest Config.Interval: the span's sampler that
// closes intervals wakes every harness.ProgressPeriod.
const minInterval = harness.ProgressPeriod

// interval is the first intervals' length, 0 for none.
func (c Config) interval() time.Duration {
	switch {
	case c.Interval < 0:
		return 0
	case c.Interval == 0:
		return suite.DefaultInterval
	}
	return c.Interval
}

func (c Config) settleTimeout() time.Duration {
	if c.SettleTimeout == 0 {
		return DefaultSettleTimeout
	}
	return c.SettleTimeout
}

// deleted is how many points the delete step deletes: half, rounded
// down, of the generated points; of an imported file's, those before
// the cut-off (points.Survey).
func (c Config) deleted() int64 {
	if im := c.Values.Import; im != nil {
		return im.Deleted
	}
	return c.Points / 2
}

// sizes are the parameters of the points the write step writes, which a
// dataset of them records.
func (c Config) sizes() dataset.Sizes {
	return dataset.Sizes{Points: c.Points, Series: c.Series, Batch: c.Batch, Seed: c.Seed, Values: c.Values}
}
