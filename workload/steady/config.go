package steady

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

// Method is how expired data is deleted.
type Method string

// The retention methods.
const (
	// MethodDelete deletes each series' expired points with one
	// DeleteRange per series, in the series-major layout (what the 2014
	// tool did).
	MethodDelete Method = "delete"
	// MethodBucket writes time-bucket-major keys and drops expired
	// buckets, every series at once, with one DeleteRange.
	MethodBucket Method = "bucket"
	// MethodShards puts each time shard in an engine instance of its own
	// and drops an expired one whole: Close, then delete its directory.
	MethodShards Method = "shards"
	// MethodTTL deletes nothing: the engine, opened with an expiry
	// (engine.Options.Expiry, Config.Expiry), drops the points by itself
	// once they are that old by the wall clock (expiry.go).
	MethodTTL Method = "ttl"
)

// Methods are the retention methods, the default first.
var Methods = []Method{MethodDelete, MethodBucket, MethodShards, MethodTTL}

// ParseMethod is the Method named s.
func ParseMethod(s string) (Method, error) {
	if m := Method(s); slices.Contains(Methods, m) {
		return m, nil
	}
	return "", fmt.Errorf("%w: retention method %q: use delete, bucket, shards or ttl", ErrInvalidConfig, s)
}

// Defaults of the Config fields that have one.
const (
	DefaultRate     = 10_000
	DefaultSpeedup  = 1
	DefaultInterval = time.Second
	// DefaultLateWindow bounds how late a late batch is, in data time.
	DefaultLateWindow = time.Minute
	// DefaultChurnEvery is how much data time passes between
	// replacements of series.
	DefaultChurnEvery = time.Minute
	// bucketsPerRetention is the retention window over the default
	// bucket (and shard) width: expired data goes in tenths.
	bucketsPerRetention = 10
	multiSeries         = 10
)

// MaxRatePerWriter is the most points per second one writer is asked to
// schedule and generate: the harness alone keeps 3M on one core of a
// loaded machine and spends about a tenth of that core on 2M
// (BenchmarkHarness), so above it the harness, not the engine, could
// limit the run.
const MaxRatePerWriter = 4_000_000

// maxRate is the most points per second writers can schedule and
// generate on this machine: MaxRatePerWriter each, as many as there are
// cores.
func maxRate(writers int) float64 {
	return MaxRatePerWriter * float64(min(writers, runtime.NumCPU()))
}

// MaxWriters bounds Writers and Readers each, as querymix.MaxWorkers does
// mixed's.
const MaxWriters = querymix.MaxWorkers

// Config is one steady-state run. Zero fields take the defaults
// WithDefaults fills in; Validate rejects what cannot run.
type Config struct {
	// Duration is how long the schedule runs in wall time. Required.
	Duration time.Duration `json:"duration_ns"`
	// Rate is the points per second the writers are scheduled to send,
	// over all of them. Default DefaultRate.
	Rate float64 `json:"rate"`
	// Writers is how many goroutines send batches; batch b goes to
	// writer b mod Writers. Default 1.
	Writers int `json:"writers"`
	// Readers is how many goroutines query meanwhile. Default 0.
	Readers int `json:"readers"`
	// Series is how many series are live at any time; with an imported
	// file, its series (points.Survey). Required.
	Series int64 `json:"series"`
	// Batch is how many points a batch holds. Required.
	Batch int64 `json:"batch"`
	// Speedup is how much faster data time runs than wall time: every
	// live series gets a point every Speedup*Series/Rate seconds of data
	// time; with an imported file, always the pace of its timestamps at
	// Rate. Default DefaultSpeedup (data time is wall time).
	Speedup float64 `json:"speedup"`
	// Retention is how much data time is kept: once the data reaches a
	// time t, points older than t-Retention are deleted, a bucket at a
	// time. Default: a third of the run's data time.
	Retention time.Duration `json:"retention_ns"`
	// Method is how expired data is deleted. With MethodTTL the engine
	// must have been opened with the expiry Config.Expiry. Default
	// MethodDelete.
	Method Method `json:"method"`
	// BucketWidth is the data time of one bucket (MethodBucket), one
	// shard (MethodShards) and one retention step (every method).
	// Default Retention/10.
	BucketWidth time.Duration `json:"bucket_width_ns"`
	// Late is the fraction of batches sent late, after up to LateWindow
	// of data time. Default 0.
	Late float64 `json:"late"`
	// LateWindow is how late a late batch is at most, in data time.
	// Default DefaultLateWindow, or Retention/4 if that is shorter.
	LateWindow time.Duration `json:"late_window_ns"`
	// OutOfOrder is the fraction of a batch's points put out of order,
	// each swapped with another point of the batch. Default 0.
	OutOfOrder float64 `json:"out_of_order"`
	// Churn is the fraction of the series replaced by new ones every
	// ChurnEvery of data time. Default 0.
	Churn float64 `json:"churn"`
	// ChurnEvery is the data time between replacements. Default
	// DefaultChurnEvery.
	ChurnEvery time.Duration `json:"churn_every_ns"`
	// Mix weighs the query kinds readers draw.
	// Default querymix.DefaultMix.
	Mix querymix.Mix `json:"mix"`
	// Window is how much recent data time a recent or multi query reads.
	// Default querymix.DefaultWindow.
	Window time.Duration `json:"window_ns"`
	// Warmup is the first part of Duration, whose figures count apart
	// (Result.Warmup), not in the run's latencies and rates. Shorter than
	// Duration. Default 0, none.
	Warmup time.Duration `json:"warmup_ns,omitempty"`
	// Percentiles are latency percentiles (0 < q <= 100) the writes,
	// commits and each query kind record beyond p50, p99, p99.9 and max
	// (measure.Detail), such as 99.99. Default none.
	Percentiles []float64 `json:"percentiles,omitempty"`
	// Distributions keeps the whole latency distribution of each of them
	// (measure.Detail) for a latency log: its encoding allocates, so only
	// when asked (-latency-log, suite.Engine.Distributions). Default
	// false.
	Distributions bool `json:"-"`
	// Interval is the wall time of one over-time interval. Default
	// DefaultInterval.
	Interval time.Duration `json:"interval_ns"`
	// Seed determines every value and the readers' choices.
	Seed uint64 `json:"seed"`
	// Values are what the points' values are and how they are stored
	// (-values, -value-encoding), or an imported file whose points the
	// run writes instead of the model's, surveyed (Values.Import; the
	// package doc says how it runs). Default random int64s in protobuf,
	// the 2014 workload's.
	Values points.Values `json:"values,omitzero"`
	// Open opens an engine instance in a directory, for MethodShards'
	// shards. Required with MethodShards.
	Open func(dir string) (engine.Engine, error) `json:"-"`
	// Progress is told how the run advances, in seconds; nil is silent.
	Progress harness.Progress `json:"-"`
	// Log receives warnings; nil discards them.
	Log io.Writer `json:"-"`
	// Probed, if not nil, is called by FindRate after each probe with the
	// result so far (as FindRate would return it then), for a caller
	// that reports how far a search got if it is stopped. Default nil.
	Probed func(*Result) `json:"-"`
}

// WithDefaults returns c with every zero field that has a default set to
// it.
func (c Config) WithDefaults() Config {
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	if c.Writers == 0 {
		c.Writers = 1
	}
	switch im := c.Values.Import; {
	case im != nil && im.Points > 0:
		// A file's data time is its timestamps, at the rate.
		c.Speedup = float64(im.Span) / 1e9 * c.Rate / float64(im.Points)
	case c.Speedup == 0:
		c.Speedup = DefaultSpeedup
	}
	if c.Retention == 0 {
		c.Retention = (c.dataTime() / 3).Round(time.Millisecond)
	}
	if c.Method == "" {
		c.Method = MethodDelete
	}
	if c.BucketWidth == 0 {
		c.BucketWidth = (c.Retention / bucketsPerRetention).Round(time.Millisecond)
	}
	if c.LateWindow == 0 {
		c.LateWindow = min(DefaultLateWindow, c.Retention/4)
	}
	if c.ChurnEvery == 0 {
		c.ChurnEvery = DefaultChurnEvery
	}
	if c.Mix == (querymix.Mix{}) {
		c.Mix = querymix.DefaultMix
	}
	if c.Window == 0 {
		c.Window = querymix.DefaultWindow
	}
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	return c
}

// dataTime is how much data time the run covers: with an imported file,
// the part of its span the schedule holds, as if its points were spread
// evenly over it.
func (c Config) dataTime() time.Duration {
	if im := c.Values.Import; im != nil && im.Points > 0 {
		return time.Duration(float64(im.Span) * min(1, c.Rate*c.Duration.Seconds()/float64(im.Points)))
	}
	return time.Duration(float64(c.Duration) * c.Speedup)
}

// batches is how many batches the schedule holds: Rate*Duration points,
// or an imported file's if it has fewer, in whole batches.
func (c Config) batches() int64 {
	n := int64(c.Rate * c.Duration.Seconds())
	if im := c.Values.Import; im != nil {
		n = min(n, im.Points)
	}
	return n / c.Batch
}

// imported reports whether the points are an imported file's.
func (c Config) imported() bool { return c.Values.Kind == points.Imported }

// step is the data time between a series' consecutive points.
func (c Config) step() time.Duration {
	return time.Duration(c.Speedup * float64(c.Series) / c.Rate * float64(time.Second))
}

// Validate reports the first setting Run cannot use, as an error
// wrapping ErrInvalidConfig that says how to fix it. It checks c as
// given; Run fills the defaults in first.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	fraction := func(name string, f float64) error {
		if !(f >= 0 && f <= 1) {
			return bad("-%s %g is not a fraction: use a number from 0 to 1, such as -%s 0.05", name, f, name)
		}
		return nil
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"late", c.Late}, {"out-of-order", c.OutOfOrder}, {"churn", c.Churn}} {
		if err := fraction(f.name, f.v); err != nil {
			return err
		}
	}
	d := c.WithDefaults()
	if err := c.validateFile(d); err != nil {
		return err
	}
	switch {
	case c.Duration <= 0:
		return bad("-duration %v: give a positive duration such as -duration 1m", c.Duration)
	case c.Rate < 0:
		return bad("-rate %g: give a positive number of points per second, such as -rate 100k", c.Rate)
	case c.Writers < 0 || c.Readers < 0 || c.Writers > MaxWriters || c.Readers > MaxWriters:
		return bad("%d writers and %d readers: use 1 to %d writers and 0 to %d readers", c.Writers, c.Readers, MaxWriters, MaxWriters)
	case c.Series <= 0:
		return bad("-series %d: give a positive number such as -series 1000", c.Series)
	case c.Batch <= 0:
		return bad("-batch %d: give a positive number such as -batch 1000", c.Batch)
	case d.Rate > maxRate(d.Writers) && d.Writers < runtime.NumCPU():
		return bad("-rate %s is more than %s can schedule and generate (%s points/s each): lower -rate or raise -writers, up to the %d cores",
			report.Rate(d.Rate), plural(d.Writers, "writer"), report.Rate(MaxRatePerWriter), runtime.NumCPU())
	case d.Rate > maxRate(d.Writers):
		return bad("-rate %s is more than the writers on this machine's %d cores can schedule and generate (%s points/s each): lower -rate",
			report.Rate(d.Rate), runtime.NumCPU(), report.Rate(MaxRatePerWriter))
	case d.Rate*d.Duration.Seconds() < float64(2*d.Batch):
		return bad("-rate %g for %v is fewer than two batches of %d points: raise -rate or -duration, or lower -batch", d.Rate, d.Duration, d.Batch)
	case c.Speedup < 0:
		return bad("-speedup %g: give how many times faster data time runs than wall time, such as -speedup 10", c.Speedup)
	case d.step() <= 0:
		return bad("-speedup %g with -rate %g over %d series gives each series a point less than 1ns of data time apart: raise -speedup", d.Speedup, d.Rate, d.Series)
	case c.Retention < 0 || d.Retention < time.Second:
		return bad("-retention %v: give a window of data time of at least 1s, such as -retention 10m", d.Retention)
	case d.Retention >= d.dataTime():
		return bad("-retention %v is not shorter than the run's %v of data time (-duration %v at -speedup %g), so nothing would expire: raise -speedup to at least %g or lower -retention",
			d.Retention, d.dataTime(), d.Duration, d.Speedup, 2*d.Retention.Seconds()/d.Duration.Seconds())
	case c.BucketWidth < 0 || d.BucketWidth > d.Retention:
		return bad("-bucket %v: give a positive width up to -retention (%v)", d.BucketWidth, d.Retention)
	case c.LateWindow < 0 || (d.Late > 0 && d.LateWindow >= d.Retention-d.BucketWidth):
		return bad("-late-window %v: give a positive window shorter than -retention minus one bucket (%v)", d.LateWindow, d.Retention-d.BucketWidth)
	case c.ChurnEvery < 0 || (d.Churn > 0 && d.ChurnEvery < d.step()):
		return bad("-churn-every %v: give at least the data time between a series' points (%v)", d.ChurnEvery, d.step())
	case c.Warmup < 0 || c.Warmup >= c.Duration:
		return bad("-warmup %v is not between 0 and -duration %v: shorten -warmup or lengthen -duration", c.Warmup, c.Duration)
	case c.Window < 0 || c.Interval < 0:
		return bad("-window %v, interval %v: give positive durations", c.Window, c.Interval)
	case d.Method == MethodShards && c.Open == nil:
		return bad("the shards method needs Config.Open to open each shard's engine")
	case d.Method == MethodTTL && d.Retention < time.Duration(d.Speedup*float64(time.Second)):
		return bad("-retention-method ttl: -retention %v at -speedup %g is %v of wall time, and engines expire in whole seconds: keep at least 1s (raise -retention to %v or lower -speedup)",
			d.Retention, d.Speedup, time.Duration(float64(d.Retention)/d.Speedup), time.Duration(d.Speedup*float64(time.Second)))
	}
	if d.Readers > 0 {
		total := 0
		for _, k := range querymix.QueryKinds {
			total += d.Mix.Weight(k)
		}
		if total <= 0 {
			return bad("-mix %s draws no query: give a kind a positive weight", d.Mix)
		}
	}
	if _, err := ParseMethod(string(d.Method)); err != nil {
		return err
	}
	if err := measure.CheckPercentiles(c.Percentiles); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	if err := d.Values.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return nil
}

// describe says the run's parameters in one line.
func (c Config) describe() string {
	var b strings.Builder
	pace := fmt.Sprintf("data time x%g (a point per series every %s)", c.Speedup, report.Duration(c.step()))
	if c.imported() {
		pace = fmt.Sprintf("the file's own data time (x%.3g on average at this rate)", c.Speedup)
	}
	fmt.Fprintf(&b, "%s points/s over %s series in batches of %d for %v, %s, retention %v by %s in buckets of %v",
		report.Rate(c.Rate), harness.Count(c.Series), c.Batch, c.Duration, pace, c.Retention, c.Method, c.BucketWidth)
	if c.Method == MethodTTL {
		fmt.Fprintf(&b, " (the engine's expiry: %v of wall time)", c.Expiry())
	}
	b.WriteString(c.Values.Note())
	if c.Late > 0 {
		fmt.Fprintf(&b, ", %g of batches late by up to %v", c.Late, c.LateWindow)
	}
	if c.OutOfOrder > 0 {
		fmt.Fprintf(&b, ", %g of points out of order", c.OutOfOrder)
	}
	if c.Churn > 0 {
		fmt.Fprintf(&b, ", %g of series replaced every %v", c.Churn, c.ChurnEvery)
	}
	fmt.Fprintf(&b, "; %s, %s", plural(c.Writers, "writer"), plural(c.Readers, "reader"))
	if c.Readers > 0 {
		fmt.Fprintf(&b, " (mix %s, window %v)", c.Mix, c.Window)
	}
	return b.String()
}

// plural is "1 writer", "2 writers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
