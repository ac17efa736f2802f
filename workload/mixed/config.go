package mixed

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

// Defaults of the Config fields that have one.
const (
	DefaultMultiSeries = 10
)

// Config is one mixed run. Zero fields take the defaults WithDefaults
// fills in; Validate rejects what cannot run.
type Config struct {
	// Duration is how long writers and readers run, after the preload.
	// Required.
	Duration time.Duration `json:"duration_ns"`
	// Warmup is the first part of Duration, whose operations count apart
	// (Result.Warmup), not in the run's figures: an operation started in
	// it is the warm-up's. Shorter than Duration. Default 0, none.
	Warmup time.Duration `json:"warmup_ns,omitempty"`
	// Writers is how many goroutines write; each owns an equal share of
	// the series. Writers or Readers must be positive. Default 0.
	Writers int `json:"writers"`
	// Readers is how many goroutines query. Default 0.
	Readers int `json:"readers"`
	// Series is how many series there are. Required.
	Series int64 `json:"series"`
	// Batch is how many points a writer commits at once. Required.
	Batch int64 `json:"batch"`
	// Points is the preload: points written, as the time-series
	// workload's write step writes them, before the clock starts.
	// Default 0, none.
	Points int64 `json:"points"`
	// Rate caps the points written per second, over all writers; each
	// writer paces itself to its share. Default 0, no cap.
	Rate float64 `json:"rate,omitempty"`
	// Mix weighs the query kinds readers draw from. Default
	// querymix.DefaultMix.
	Mix querymix.Mix `json:"mix"`
	// Window is how much of a series' recent data (in data time, where
	// points follow each other by points.Interval) a recent or multi
	// query reads. Default querymix.DefaultWindow.
	Window time.Duration `json:"window_ns"`
	// Skew picks series for queries: 0 uniformly, or a zipfian exponent
	// in (0, 1) under which series 0 is the most read (YCSB uses 0.99).
	// Default 0.
	Skew float64 `json:"skew"`
	// MultiSeries is K, how many series a multi query reads under one
	// snapshot. Default DefaultMultiSeries, or every series of an
	// imported file with fewer.
	MultiSeries int `json:"multi_series"`
	// Percentiles are latency percentiles (0 < q <= 100) each operation
	// kind records beyond p50, p99, p99.9 and max (Operation.Percentiles),
	// such as 99.99. Default none.
	Percentiles []float64 `json:"percentiles,omitempty"`
	// Distributions keeps each operation kind's whole latency
	// distribution (Operation.Distribution) for a latency log: its
	// encoding allocates, so only when asked (-latency-log,
	// suite.Engine.Distributions). Default false.
	Distributions bool `json:"-"`
	// Seed determines every value, as in the time-series workload, and
	// the readers' choices.
	Seed uint64 `json:"seed"`
	// Values are what the points' values are and how they are stored
	// (-values, -value-encoding); with an imported file, the points
	// themselves: Values.Import, its survey, must be set, and Series
	// be its series, and the preload (Points) is the file's first
	// points. Default random int64s in protobuf, the 2014 workload's.
	Values points.Values `json:"values,omitzero"`
	// Preloaded says the store already holds the preload's Points, from
	// a dataset an earlier run wrote: Run does not write them. Default
	// false.
	Preloaded bool `json:"-"`
	// AfterPreload, if not nil, is called once the preload is written and
	// before the clock starts: where a caller saves the dataset. Default
	// nil.
	AfterPreload func() error `json:"-"`
	// Progress is told how the preload and the run advance; nil is
	// silent.
	Progress harness.Progress `json:"-"`
	// Log receives warnings; nil discards them.
	Log io.Writer `json:"-"`
}

// WithDefaults returns c with every zero field that has a default set to
// it.
func (c Config) WithDefaults() Config {
	if c.Mix == (querymix.Mix{}) {
		c.Mix = querymix.DefaultMix
	}
	if c.Window == 0 {
		c.Window = querymix.DefaultWindow
	}
	if c.MultiSeries == 0 {
		c.MultiSeries = DefaultMultiSeries
		if c.Values.Import != nil {
			c.MultiSeries = int(min(DefaultMultiSeries, c.Series))
		}
	}
	return c
}

// Validate reports the first setting Run cannot use, as an error
// wrapping ErrInvalidConfig that says how to fix it. It checks c as
// given; Run fills the defaults in first.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	span := time.Duration(c.Points) * time.Duration(points.Interval)
	if err := c.validateFile(); err != nil {
		return err
	}
	file := c.Values.Kind == points.Imported
	switch {
	case c.Duration <= 0:
		return bad("duration is %v; use a positive duration such as -duration 30s", c.Duration)
	case c.Warmup < 0 || c.Warmup >= c.Duration:
		return bad("warm-up %v is not between 0 and -duration %v: shorten -warmup or lengthen -duration", c.Warmup, c.Duration)
	case c.Writers < 0 || c.Readers < 0:
		return bad("%d writers and %d readers; use counts of 0 or more", c.Writers, c.Readers)
	case c.Writers > querymix.MaxWorkers || c.Readers > querymix.MaxWorkers:
		return bad("%d writers and %d readers; use at most %d of each: a machine with fewer cores only queues them, and the run then measures the scheduler rather than the engine", c.Writers, c.Readers, querymix.MaxWorkers)
	case c.Writers == 0 && c.Readers == 0:
		return bad("no writers and no readers; use -writers 1 or more, -readers 1 or more, or both")
	case c.Series <= 0:
		return bad("series is %d; use a positive number such as -series 1000", c.Series)
	case int64(c.Writers) > c.Series:
		return bad("%d writers for %d series: each writer owns a share of the series; lower -writers or raise -series", c.Writers, c.Series)
	case c.Batch <= 0:
		return bad("batch is %d; use a positive number such as -batch 1000", c.Batch)
	case c.Points < 0 || c.Points > points.MaxPoints:
		return bad("points is %d; preload between 0 and %d points", c.Points, int64(points.MaxPoints))
	case c.Points > 0 && c.Series > c.Points && !file:
		return bad("series (%d) exceeds the preloaded points (%d): every series needs a point; lower -series or raise -points", c.Series, c.Points)
	case c.Rate < 0:
		return bad("rate is %g; use a positive number of points per second, or none for no cap", c.Rate)
	case c.Window < 0:
		return bad("window is %v; use a positive duration such as -window 1m", c.Window)
	case c.Points > 0 && c.Window > span && (c.Mix.Recent > 0 || c.Mix.Multi > 0) && !file:
		return bad("window %v is longer than the preloaded data (%d points, %v of data time); use a shorter -window or more -points", c.Window, c.Points, span)
	case c.Skew < 0 || c.Skew >= 1:
		return bad("skew is %g; use 0 for uniform, or a zipfian exponent below 1 such as -skew 0.99", c.Skew)
	case c.MultiSeries < 0 || int64(c.MultiSeries) > c.Series:
		return bad("a multi query over %d of %d series; use between 1 and -series", c.MultiSeries, c.Series)
	}
	if err := c.Mix.Validate(c.Readers); err != nil {
		return bad("%s", strings.TrimPrefix(err.Error(), querymix.ErrInvalid.Error()+": "))
	}
	if err := measure.CheckPercentiles(c.Percentiles); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	if err := c.Values.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return nil
}

// validateFile reports what makes an imported file's points unable to
// run: its survey missing or not matching Series, fewer series than
// writers, or a preload longer than the file.
func (c Config) validateFile() error {
	im := c.Values.Import
	switch {
	case c.Values.Kind != points.Imported:
		return nil
	case im == nil:
		return fmt.Errorf("%w: -values %s was not surveyed: set Values.Import to its Values.Survey", ErrInvalidConfig, c.Values.File)
	case c.Series != im.Series:
		return fmt.Errorf("%w: series is %d, but -values %s has %d: set Series to the survey's", ErrInvalidConfig, c.Series, c.Values.File, im.Series)
	case int64(c.Writers) > im.Series:
		return fmt.Errorf("%w: -values %s has %d series, fewer than the %d writers, each of which owns a share of them: use -writers %d or fewer", ErrInvalidConfig, c.Values.File, im.Series, c.Writers, im.Series)
	case c.Points > im.Points:
		return fmt.Errorf("%w: -points %d is more than the %d points of -values %s, whose first points are the preload: lower -points, or leave it out for none", ErrInvalidConfig, c.Points, im.Points, c.Values.File)
	}
	return nil
}

// sizes are the parameters of the preloaded points, which a dataset of
// them records.
func (c Config) sizes() dataset.Sizes {
	return dataset.Sizes{Points: c.Points, Series: c.Series, Batch: c.Batch, Seed: c.Seed, Values: c.Values}
}
