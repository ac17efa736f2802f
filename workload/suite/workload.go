package suite

import (
	"flag"
	"io"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

// Workload is what a workload package registers: its flags and settings,
// its run on one engine, and its report. S is its own settings, which its
// flags set and a job carries to the child as JSON; R is its result on
// one engine, which the child sends its parent as JSON.
type Workload[S, R any] interface {
	// Info describes the workload to the command line.
	Info() Info
	// Defaults are its settings before any flag.
	Defaults() S
	// Flags defines the workload's own flags on fs, setting s.
	Flags(fs *flag.FlagSet, s *S)
	// Configure completes and checks s and c once, in the parent, when
	// the workload is picked; given tells which flags the command line
	// set. It may change a default of c (the mixed preload is none
	// unless -points). Its error wraps ErrInvalid and names the fix in
	// one line; the child runs what it accepted without checking again.
	Configure(s *S, c *Common, given Given) error
	// Start is the result of an engine that has not run: what one that
	// failed to open or was stopped reports, with the run's parameters
	// and the engine's options as results record them, rather than an
	// empty result.
	Start(s S, options map[string]any) *R
	// Run runs the workload on e, in its child process, with the
	// settings Configure completed: the child has no Common.
	Run(s S, e *Engine) (*R, error)
	// Fields are the parts of res that the command fills in and reads,
	// whatever the workload.
	Fields(res *R) Fields
	// Failure says why res failed, "" if it passed.
	Failure(res *R) string
	// Report renders the results of a run.
	Report(runID string, env harness.Environment, results []*R) report.Renderer
}

// Preparer is a Workload that readies the machine in the parent before
// anything is created in path, the -path directory: the crash check's
// power cut makes sure FUSE works and detaches the dead mounts of a
// killed run. Its error is the user's to fix.
type Preparer[S any] interface {
	Prepare(s S, path string) error
}

// EngineOptioner is a Workload whose settings need an option of the
// engine (the steady-state workload's ttl method: an expiry). Given o,
// the options of engine name resolved, EngineOptions returns them with
// what s needs set, resolved again (engine.Resolved), or an error
// wrapping ErrInvalid that names the fix in one line when the engine
// cannot take them. The command calls it in the parent, once per engine,
// before anything is created; the child opens the engine with the result.
type EngineOptioner[S any] interface {
	EngineOptions(s S, name string, o engine.Options) (engine.Options, error)
}

// Roles is a Workload whose run starts processes of its own in other
// roles (Engine.Spawn): the crash check's writer and reader. Role runs
// role in such a process, which reports on its result pipe; an error
// makes the process exit with status 1, ErrNoRole for a role the
// workload does not have.
type Roles[S any] interface {
	Role(role string, s S, e *Engine) error
}

// JVMRunner is a Workload that the JVM worker (docs/protocol.md) runs too,
// within limits: JVM says why it cannot run s and c, naming the fix, or
// returns nil.
type JVMRunner[S any] interface {
	JVM(s S, c Common) error
}

// Comparer is a Workload whose JSON reports benchmark-storage compare
// reads.
type Comparer[R any] interface {
	// Samples lists every number of each engine's parts over its runs,
	// labelled as its report's tables label them.
	Samples(results []*R) []report.Samples
	// CompareMetrics are the figures compare shows unless told which.
	CompareMetrics() []report.CompareMetric
}

// Info describes a workload to the command line.
type Info struct {
	// About names it in messages: "the mixed workload".
	About string
	// Selects is a flag of its own that picks it when -workload is not
	// given: "benchmarks" for the micro benchmarks; "" for none.
	Selects string
	// Aliases are other names that pick it: "timeseries" for ts.
	Aliases []string
	// ResultKey is a key of its results' JSON that no other workload's
	// results have ("steps"): how compare and merge tell its reports
	// apart (ReadReport).
	ResultKey string
	// Shared are the shared flags it takes (FlagPoints, ...), which the
	// command defines for it and its Configure copies from Common; the
	// others are not its flags. FlagDataset only with Datasets.
	Shared []string
	// Single says it runs each engine once, repeating within its run (the
	// crash check's kills): -count is not its flag.
	Single bool
	// Datasets says it keeps the points it writes first in -dataset
	// (Common.Dataset; package dataset).
	Datasets bool
	// Sync is the durability its engines run under unless -sync says
	// otherwise; "" leaves the configuration's (none by default).
	Sync engine.SyncMode
	// Ordered says it reads keys in order, which an engine without
	// ordered iteration cannot do.
	Ordered bool
	// Stops says its Run ends early when Engine.Stop is closed, with the
	// figures of the part it was in so far, rather than being killed.
	Stops bool
}

// Given reports whether the command line set the flag name.
type Given func(name string) bool

// Common are the settings several workloads share, which the command's
// flags set and hand to every workload's Configure: each copies those it
// uses into its own settings, and refuses or ignores the others. A job
// carries the workload's settings alone, so it names each size once;
// of Common only Dataset reaches the child (Engine.Dataset).
type Common struct {
	// Points is -points: what the time-series write step writes, or the
	// mixed preload.
	Points int64
	// Series is -series: how many series the points are spread over.
	Series int64
	// Batch is -batch: points, entries or writes per committed batch.
	Batch int64
	// Seed is -seed: the same seed writes the same data.
	Seed uint64
	// Interval is -interval: the length of the first over-time
	// intervals; negative records none. Zero means DefaultInterval.
	Interval time.Duration
	// Values are -values and -value-encoding: what the points' values
	// are and how they are stored, the real seed's file resolved.
	Values points.Values
	// Percentiles is -percentiles: the latency percentiles each part
	// records beyond p50, p99, p99.9 and max, checked
	// (measure.CheckPercentiles). Default none.
	Percentiles []float64
	// Cold is -cold: the reads of a workload that takes it (the ts
	// query steps, the micro read benchmarks) start with the store's
	// files out of the page cache (harness.DropPageCache). Default
	// false: warm.
	Cold bool
	// Dataset is -dataset: where a workload that keeps datasets
	// (Info.Datasets) keeps its first points; "" keeps none.
	Dataset string
}

// Sizes are the dataset parameters of c: what a dataset saved under
// c.Dataset must match.
func (c Common) Sizes() dataset.Sizes {
	return dataset.Sizes{Points: c.Points, Series: c.Series, Batch: c.Batch, Seed: c.Seed, Values: c.Values}
}

// Fields point into a workload's result at what every result has.
type Fields struct {
	Header *harness.Header
	// Err is why the engine failed, "" if it did not.
	Err *string
	// Dataset is where the run's data came from with -dataset; nil for
	// a workload that keeps no datasets.
	Dataset **dataset.Use
}

// Progress shows how a child's run advances, to a person and to the
// parent. A workload calls Begin and End from its own goroutine and
// Update from a ticker goroutine, never inside timed work.
type Progress interface {
	harness.Progress
	// Write prints a message of the workload (a warning) on a line of
	// its own.
	io.Writer
	// SetUnit names what a part counts, "points" until set: "ops" for
	// the micro benchmarks, harness.UnitSeconds for a part as long as
	// its duration, whose progress has no rate (harness.InSeconds).
	SetUnit(unit string)
	// Partial sends res, the result so far, which the parent reports if
	// the run is stopped before it sends its result.
	Partial(res any)
}

// FirstFailure is own, a result's error, or else the error of its first
// failed part (a step, a benchmark) after the part's name.
func FirstFailure[P any](own string, parts []P, part func(P) (name, err string)) string {
	if own != "" {
		return own
	}
	for _, p := range parts {
		if name, err := part(p); err != "" {
			return name + ": " + err
		}
	}
	return ""
}

// DefaultInterval is Common.Interval's default: the first over-time
// intervals of a step are a second long.
const DefaultInterval = time.Second
