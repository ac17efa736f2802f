package mixed

import (
	"slices"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
)

// Result is one engine's mixed run. Run fills everything but the Header
// and Dataset, which the caller fills.
type Result struct {
	// Header names the engine, its version and options.
	harness.Header
	// Config is what ran, defaults filled in.
	Config Config `json:"config"`
	// Dataset, with -dataset, says whether this run reused the dataset
	// (and how it cloned it) or wrote and saved it (and how long saving
	// took); nil without one. The caller fills it.
	Dataset *dataset.Use `json:"dataset,omitempty"`
	// Preload is what writing the preloaded points cost; nil when there
	// were none or they came from a dataset.
	Preload *Preload `json:"preload,omitempty"`
	// Elapsed is how long writers and readers ran after the warm-up:
	// Config.Duration less Config.Warmup, or less when an engine error
	// stopped them.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Warmup is what the warm-up did (Config.Warmup), apart from
	// Elapsed and Operations; nil without one. Cost, EngineMetrics, Disk
	// and Final are of the whole run, warm-up included.
	Warmup *Warmup `json:"warmup,omitempty"`
	// Cost is what the whole run cost the process.
	Cost harness.Cost `json:"cost"`
	// Disk is the engine directory's footprint at the end (see package
	// workload for its three figures).
	Disk diskusage.Usage `json:"disk"`
	// BytesPerPoint is Disk.Used over the points the final check read,
	// what the store held at the end; 0 without a final check.
	BytesPerPoint float64 `json:"bytes_per_point,omitempty"`
	// EngineMetrics is what the engine reports of its own work over the
	// same span as Cost (engine.ReadMetrics, read before and after it):
	// counters as their increase, the gauges (engine.IsGauge) as at the end.
	// A name missing is unknown, not zero; nil for an engine that reports
	// none.
	EngineMetrics engine.Metrics `json:"engine_metrics,omitempty"`
	// Operations holds the writes, then each query kind of the mix, in
	// querymix.QueryKinds order.
	Operations []Operation `json:"operations"`
	// Final is the check after writers and readers stopped: every series
	// read whole, expecting exactly the points writers acknowledged.
	Final *harness.Verification `json:"final_check,omitempty"`
	// Error summarizes every failure, "" if none.
	Error string `json:"error,omitempty"`
}

// Operation returns the operation of kind, or nil if none ran.
func (r *Result) Operation(kind string) *Operation { return operation(r.Operations, kind) }

// operation is the operation of kind in ops, or nil.
func operation(ops []Operation, kind string) *Operation {
	for i := range ops {
		if ops[i].Kind == kind {
			return &ops[i]
		}
	}
	return nil
}

// Warmup is what writers and readers did in the warm-up, measured as
// the run after it is.
type Warmup struct {
	// Elapsed is how long it lasted: Config.Warmup, to within the
	// sampler's period (harness.ProgressPeriod), or less when an engine
	// error stopped the run.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Operations are those started in it, as Result.Operations.
	Operations []Operation `json:"operations"`
}

// Operation returns the warm-up's operation of kind, or nil if none ran
// or there was no warm-up.
func (w *Warmup) Operation(kind string) *Operation {
	if w == nil {
		return nil
	}
	return operation(w.Operations, kind)
}

// Preload is what writing the preloaded points cost, measured as the
// time-series workload's write step is.
type Preload struct {
	Points int64 `json:"points"`
	// Time is the time inside Batch.Put and Commit.
	Time         time.Duration `json:"time_ns"`
	PointsPerSec float64       `json:"points_per_sec"`
	harness.Cost
	// Latency is per batch.
	Latency *measure.Percentiles `json:"latency,omitempty"`
}

// Operation is one kind of operation over the run. An operation is a
// point written (KindWrite) or a query.
type Operation struct {
	Kind string `json:"kind"`
	// Count is how many ran: points for writes, queries for the others.
	Count int64 `json:"count"`
	// OpsPerSec is Count over Result.Elapsed.
	OpsPerSec float64 `json:"ops_per_sec"`
	// Points is how many points the queries read; for writes, Count.
	Points int64 `json:"points"`
	// Latency is per committed batch for writes (Batch.Put calls and
	// Commit) and per query for the others: making the iterator (or
	// snapshot), reading, copying each entry out, closing. Checking what
	// was read is not in it.
	Latency   *measure.Percentiles `json:"latency,omitempty"`
	LatencyOf string               `json:"latency_of"`
	// Detail is the percentiles Config.Percentiles asked for and, for a
	// latency log, the whole distribution behind Latency.
	measure.Detail
	// Verify is how the queries' points compared; nil for writes.
	Verify *harness.Verification `json:"verify,omitempty"`
	// PerSecond is Count in each second of the run (or warm-up), in
	// order, by when each operation ended; the last holds what ran in the
	// final, possibly shorter, second.
	PerSecond []int64 `json:"per_second"`
	// PerSecondStats is the spread of PerSecond over the whole seconds:
	// the final one is left out when it was shorter than a second. Nil
	// when no second was whole. Every report shows these figures.
	PerSecondStats *Spread `json:"per_second_stats,omitempty"`
}

// Spread is the slowest, median and fastest of a series of figures; the
// median of an even count is the mean of the two middle ones.
type Spread struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// wholeSecond is how long the final second of a run must have lasted to
// count as whole: the sampler's ticks come a few milliseconds late.
const wholeSecond = 990 * time.Millisecond

// perSecondStats is the Spread of counts, one per second, of which the
// last spanned final.
func perSecondStats(counts []int64, final time.Duration) *Spread {
	if len(counts) > 0 && final < wholeSecond {
		counts = counts[:len(counts)-1]
	}
	if len(counts) == 0 {
		return nil
	}
	s := slices.Sorted(slices.Values(counts))
	n := len(s)
	median := float64(s[n/2])
	if n%2 == 0 {
		median = float64(s[n/2-1]+s[n/2]) / 2
	}
	return &Spread{Min: float64(s[0]), Median: median, Max: float64(s[n-1])}
}
