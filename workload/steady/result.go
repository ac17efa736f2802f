package steady

import (
	"math"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// Result is one engine's steady-state run. Run fills everything but the
// Header, which the caller fills.
type Result struct {
	harness.Header
	// Config is what ran, defaults filled in.
	Config Config `json:"config"`
	// Elapsed is the run's wall time, the final check excluded.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Cost is what that cost the process.
	Cost harness.Cost `json:"cost"`
	// Scheduled is the points the schedule held, Written those committed
	// and Unsent the rest: batches not sent when the run stopped, too far
	// behind the schedule (Config.Duration and half again, at least 5 s,
	// after the start).
	Scheduled int64 `json:"scheduled_points"`
	Written   int64 `json:"written_points"`
	Unsent    int64 `json:"unsent_points"`
	// PointsPerSec is Written over the run's wall time; with a warm-up,
	// what was written after it over the wall time after it.
	PointsPerSec float64 `json:"points_per_sec"`
	// Write is the distribution of the batches' latencies, each from its
	// intended start on the schedule (coordinated omission corrected);
	// Commit is that of the engine's commits alone.
	Write  *measure.Percentiles `json:"write_latency,omitempty"`
	Commit *measure.Percentiles `json:"commit_latency,omitempty"`
	// WriteDetail and CommitDetail are what Config.Percentiles and a
	// latency log asked of them.
	WriteDetail  measure.Detail `json:"write_latency_detail,omitzero"`
	CommitDetail measure.Detail `json:"commit_latency_detail,omitzero"`
	// Warmup is what the warm-up did (Config.Warmup), apart from the
	// latencies and rates here, which are of the run after it; nil
	// without one. Elapsed, Cost, the points written, the queries'
	// verification, the intervals and the rest are of the whole run.
	Warmup *Warmup `json:"warmup,omitempty"`
	// Queries holds each query kind of the mix, and Query the latency
	// distribution of them all.
	Queries []Query              `json:"queries,omitempty"`
	Query   *measure.Percentiles `json:"query_latency,omitempty"`
	// Retention is what deleting expired data did.
	Retention Retention `json:"retention"`
	// SeriesIDs is how many series ids the run used: Config.Series and
	// those churn added.
	SeriesIDs int64 `json:"series_ids"`
	// Disk is the directory's footprint at the end.
	Disk diskusage.Usage `json:"disk"`
	// BytesPerPoint is Disk.Used over the points the final check read,
	// what the store held at the end; 0 without a final check.
	BytesPerPoint float64 `json:"bytes_per_point,omitempty"`
	// DiskTail is the disk used in the last third of the intervals: a
	// store that reclaims space as fast as it ingests stays within a few
	// percent of its mean there.
	DiskTail *Spread `json:"disk_last_third,omitempty"`
	// RetentionLag is the most data time retention kept beyond its window
	// and a bucket in the last third of the run: 0 when deleting kept up
	// with ingest.
	RetentionLag time.Duration `json:"retention_lag_ns"`
	// SpaceAmp and WriteAmp are the last interval's.
	SpaceAmp float64 `json:"space_amplification"`
	WriteAmp float64 `json:"write_amplification"`
	// EngineMetrics is what the engine's counters rose by over the run,
	// the intervals' summed.
	EngineMetrics engine.Metrics `json:"engine_metrics,omitempty"`
	// Intervals are the run's figures over time.
	Intervals []Interval `json:"intervals"`
	// Search is how the rate search (FindRate) went; nil for a run at
	// one rate. The other figures are then those of the highest passing
	// rate's run, or of the last run if none passed.
	Search *Search `json:"search,omitempty"`
	// Final is the check after everything stopped: the whole store read,
	// expecting exactly the committed points that did not expire.
	Final *harness.Verification `json:"final_check,omitempty"`
	// Error summarizes every failure, "" if none.
	Error string `json:"error,omitempty"`
}

// Query is what readers did of one kind.
type Query struct {
	Kind    string               `json:"kind"`
	Count   int64                `json:"count"`
	PerSec  float64              `json:"per_sec"`
	Latency *measure.Percentiles `json:"latency,omitempty"`
	// Detail is what Config.Percentiles and a latency log asked of
	// Latency.
	measure.Detail
	// Verify is how its answers compared, over the whole run: a warm-up's
	// Queries have none.
	Verify harness.Verification `json:"verify"`
}

// Warmup is what the warm-up did (Config.Warmup), measured as the run
// after it is.
type Warmup struct {
	// Elapsed is how long it lasted: Config.Warmup, to within the
	// sampler's tick, or less when the run stopped in it.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Written is the points committed in it, and PointsPerSec that over
	// Elapsed.
	Written      int64   `json:"written_points"`
	PointsPerSec float64 `json:"points_per_sec"`
	// Write, Commit, Query and Queries are as the Result's.
	Write        *measure.Percentiles `json:"write_latency,omitempty"`
	Commit       *measure.Percentiles `json:"commit_latency,omitempty"`
	WriteDetail  measure.Detail       `json:"write_latency_detail,omitzero"`
	CommitDetail measure.Detail       `json:"commit_latency_detail,omitzero"`
	Queries      []Query              `json:"queries,omitempty"`
	Query        *measure.Percentiles `json:"query_latency,omitempty"`
}

// Spread is a figure over intervals: its mean, extremes, and the largest
// distance from the mean as a fraction of it.
type Spread struct {
	Mean      float64 `json:"mean"`
	Min       float64 `json:"min"`
	Max       float64 `json:"max"`
	Deviation float64 `json:"max_deviation"`
}

func spreadOf(vs []float64) *Spread {
	if len(vs) == 0 {
		return nil
	}
	s := &Spread{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, v := range vs {
		s.Mean += v / float64(len(vs))
		s.Min, s.Max = min(s.Min, v), max(s.Max, v)
	}
	if s.Mean > 0 {
		s.Deviation = max(s.Max-s.Mean, s.Mean-s.Min) / s.Mean
	}
	return s
}

// WrongAnswers is every point the queries and the final check counted
// against the model.
func (r *Result) WrongAnswers() int64 {
	var n int64
	for _, q := range r.Queries {
		n += q.Verify.Problems()
	}
	if r.Final != nil {
		n += r.Final.Problems()
	}
	return n
}

// summarize fills the figures drawn from the intervals.
func (r *Result) summarize() {
	n := len(r.Intervals)
	if n == 0 {
		return
	}
	var disk []float64
	for _, iv := range r.Intervals[n-n/3:] {
		disk = append(disk, float64(iv.DiskUsed))
	}
	r.DiskTail = spreadOf(disk)
	window := r.Config.Retention + r.Config.BucketWidth
	for _, iv := range r.Intervals[n-n/3:] {
		r.RetentionLag = max(r.RetentionLag, iv.DataTime-iv.Cutoff-window)
	}
	last := r.Intervals[n-1]
	r.SpaceAmp, r.WriteAmp = last.SpaceAmp, last.WriteAmp
	for _, iv := range r.Intervals {
		for k, v := range iv.EngineMetrics {
			if r.EngineMetrics == nil {
				r.EngineMetrics = engine.Metrics{}
			}
			if engine.IsGauge(k) {
				r.EngineMetrics[k] = v
			} else {
				r.EngineMetrics[k] += v
			}
		}
	}
}
