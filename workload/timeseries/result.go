package timeseries

import (
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
)

// Step names, in the order Run runs them. They are stable identifiers
// for JSON and CSV; Step.Label is the human one.
const (
	StepWrite            = "write"
	StepQuery            = "query"
	StepDelete           = "delete"
	StepCompact          = "compact"
	StepQueryAfterDelete = "query_after_delete"
	StepWriteMore        = "write_more"
)

// StepNames lists the step names in run order.
var StepNames = []string{StepWrite, StepQuery, StepDelete, StepCompact, StepQueryAfterDelete, StepWriteMore}

// Result is one engine's run. Run fills Config, Steps and Error; the
// caller, which knows how it opened the engine, fills the Header.
type Result struct {
	// Header names the engine, its version and options; the caller fills
	// it.
	harness.Header
	// Config is the workload that ran.
	Config Config `json:"config"`
	// Dataset, with -dataset, says whether this run reused the dataset
	// (and how it cloned it) or wrote and saved it (and how long saving
	// took); nil without one. The caller fills it.
	Dataset *dataset.Use `json:"dataset,omitempty"`
	// Steps holds the steps that ran, in order; a run stopped by an
	// engine error has fewer than six.
	Steps []Step `json:"steps"`
	// Error summarizes every failure, "" if none: the steps' errors
	// prefixed with their names, or why the engine could not run at all.
	Error string `json:"error,omitempty"`
}

// Step returns the step called name, or nil if it did not run.
func (r *Result) Step(name string) *Step {
	for i := range r.Steps {
		if r.Steps[i].Name == name {
			return &r.Steps[i]
		}
	}
	return nil
}

// Step is what one step cost. Durations are in nanoseconds in JSON.
type Step struct {
	// Name is the step's stable identifier (StepWrite, ...).
	Name string `json:"name"`
	// Label is the step as the report shows it, such as "Write 100M values".
	Label string `json:"label"`
	// Points is how many points the step writes, reads or deletes; for
	// compaction, the points that remain live.
	Points int64 `json:"points"`
	// Time is the time spent inside engine calls: Batch.Put and Commit,
	// NewIterator (or SetBounds, with Config.ReuseIterator) and iteration
	// (including copying each entry out), DeleteRange, Compact. Data
	// generation, encoding and verification are excluded. The report's
	// headline figure.
	Time time.Duration `json:"time_ns"`
	// Cost is what the step cost the process and the engine's processes
	// (harness.Cost; its fields are the step's own in JSON). Its Wall is
	// the step's elapsed time including the harness's own work
	// (generating and encoding, verifying, progress counters) but
	// excluding Settle and the measurements taken after the step; its
	// CPU time and I/O run to the end of Settle and include the
	// processes the engine works in (engine.Processes, such as a local
	// etcd cluster's members; see Processes).
	harness.Cost
	// Settle is how long the engine's background work went on after the
	// step (only with Config.Settle).
	Settle time.Duration `json:"settle_ns"`
	// SettleTimedOut says the engine was still busy when Settle gave up.
	SettleTimedOut bool `json:"settle_timed_out,omitempty"`
	// PointsPerSec is Points / Time; 0 for compaction, whose time does not
	// grow with a count of points.
	PointsPerSec float64 `json:"points_per_sec"`
	// MicrosPerPoint is Time / Points in microseconds; 0 for compaction.
	MicrosPerPoint float64 `json:"us_per_point"`
	// LogicalBytes is the key+value bytes the step is about: written (write
	// steps), deleted (delete), live after it (compact), read (queries).
	LogicalBytes int64 `json:"logical_bytes"`
	// WriteAmp is IO.WriteBytes / LogicalBytes for the write, delete and
	// compact steps; 0 for queries or when IO is unavailable.
	WriteAmp float64 `json:"write_amp"`
	// Disk is the engine directory's footprint after the step (after
	// Settle, when settling): used bytes (the reports' "DB size"), actual
	// and apparent bytes, as the package doc defines them.
	Disk diskusage.Usage `json:"disk"`
	// Percentiles are the latency percentiles Config.Percentiles asked
	// for, by measure.PercentileKey ("p99.99_ns"); nil without latency.
	Percentiles map[string]time.Duration `json:"percentiles,omitempty"`
	// Distribution is the whole latency distribution behind Latency, in
	// HdrHistogram's compressed encoding (base64 in JSON), which
	// -latency-log writes as an HdrHistogram log; nil without latency.
	Distribution []byte `json:"distribution,omitempty"`
	// Cold says the step started with the store's files out of the page
	// cache (Config.Cold).
	Cold bool `json:"cold,omitempty"`
	// LivePoints is how many points the store holds after the step: the
	// points written so far less those deleted.
	LivePoints int64 `json:"live_points,omitempty"`
	// BytesPerPoint is Disk.Used over LivePoints: what a point costs on
	// disk, everything the engine keeps for it included; RawPoint bytes
	// (a timestamp and a float64) is the yardstick. 0 when the store is
	// empty.
	BytesPerPoint float64 `json:"bytes_per_point,omitempty"`
	// EngineSize is the size of the data as the engine reports it after
	// the step (engine.Sizer), summed over its copies; nil if it does not.
	// For etcd, the members' backend files: a given cluster's data is not
	// in the directory at all.
	EngineSize *EngineSize `json:"engine_size,omitempty"`
	// EngineMetrics is what the engine reports of its own work
	// (engine.ReadMetrics), read before the step and after it (after
	// Settle, when settling): counters as their increase over the step,
	// such as compact_bytes, and the gauges (engine.IsGauge) as at the
	// end.
	// An engine reports a subset of engine.MetricNames; a name missing
	// here is unknown, not zero. nil for an engine that reports none.
	EngineMetrics engine.Metrics `json:"engine_metrics,omitempty"`
	// OpenFDs is the most file descriptors seen open during the step,
	// sampled a few times a second; 0 if unavailable.
	OpenFDs int `json:"open_fds"`
	// Latency is the distribution of write batches (Put calls + Commit),
	// per-series scans, or per-series DeleteRange calls; nil for compaction.
	Latency *measure.Percentiles `json:"latency,omitempty"`
	// Intervals are the step's figures over time, in order: points and
	// latency per interval of wall time, with the engine's counters;
	// nil with Config.Interval negative.
	Intervals []Interval `json:"intervals,omitempty"`
	// Verify is what a query step read back and how it compared.
	Verify *harness.Verification `json:"verify,omitempty"`
	// Error is why the step failed: an engine error or a verification
	// failure; "" if it passed.
	Error string `json:"error,omitempty"`
	// JVM is what the JVM worker adds for a JVM engine: the garbage
	// collections during the step (no warmup: a step changes the store);
	// nil for a Go engine.
	JVM *harness.JVM `json:"jvm,omitempty"`
}

// EngineSize is what an engine reports of its data's size (engine.Sizer).
type EngineSize struct {
	// InUse is the bytes holding data.
	InUse int64 `json:"in_use_bytes"`
	// OnDisk is the bytes the engine's files take, free pages included.
	OnDisk int64 `json:"on_disk_bytes"`
}
