// Package querymix is the load that the mixed and steady workloads share:
// the query kinds readers draw, their weights (Mix), and the flags of
// writers and readers running together (DefineLoad).
package querymix

import (
	"flag"
	"time"

	"github.com/tsbench/storage/workload/suite"
)

// Defaults of the load DefineLoad defines.
const (
	// DefaultDuration is how long writers and readers run unless
	// -duration says otherwise: long enough for every query kind to run
	// many times, short enough for a bare run of every engine.
	DefaultDuration = 10 * time.Second
	// DefaultWindow is how much recent data a recent or multi query
	// reads.
	DefaultWindow = time.Minute
)

// MaxWorkers bounds Writers and Readers each: far more goroutines than
// cores queue for the CPU, and a run with thousands starves its writers
// and runs long past its duration.
const MaxWorkers = 256

// DefineLoad defines the flags of writers and readers running together,
// which the mixed and steady workloads share, flags, help text and
// defaults alike, on the fields of their configs, which it sets to those
// defaults first: one writer and one reader for DefaultDuration, no rate
// cap, DefaultMix over DefaultWindow.
func DefineLoad(fs *flag.FlagSet, writers, readers *int, duration *time.Duration, rate *float64, mix *Mix, window *time.Duration) {
	*writers, *readers, *duration, *rate, *mix, *window = 1, 1, DefaultDuration, 0, DefaultMix, DefaultWindow
	fs.IntVar(writers, "writers", *writers, "`count` of writers ingesting points, each owning an equal share of the series; with mixed, 0 leaves writing out")
	fs.IntVar(readers, "readers", *readers, "`count` of readers querying while the writers write; 0 leaves reading out")
	fs.DurationVar(duration, "duration", *duration, "how long writers and readers run, after mixed's preload (-points)")
	fs.Var((*suite.Rate)(rate), "rate", "a cap on the `points` written per second over all writers (default: no cap); with steady, the points sent per second (default 10k): a count such as 40k, 1.5M or 250000, or a fraction below 1 such as 0.5; 0 is refused")
	fs.Func("mix", "`weights` of the query kinds readers draw: kind=weight,... of last, recent, range, scan, multi, those left out not drawn, as in last=40,recent=30 (default "+DefaultMix.String()+")", func(v string) error {
		mx, err := ParseMix(v)
		*mix = mx
		return suite.Unprefixed(err, ErrInvalid)
	})
	fs.DurationVar(window, "window", *window, "how much recent data, in data time, a recent or multi query reads: in the mixed workload a series has a point every 10s of data time; in the steady-state workload one every -speedup × -series / -rate")
}

// DefineWarmup defines -warmup, which the mixed and steady workloads
// share, on their config's field, which it leaves at 0: none.
func DefineWarmup(fs *flag.FlagSet, warmup *time.Duration) {
	fs.DurationVar(warmup, "warmup", 0, "how long the run warms up first: an operation started in the first `duration` of -duration counts apart, in a warm-up section of the report and the JSON, not in the run's figures; shorter than -duration (default none)")
}
