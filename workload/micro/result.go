package micro

import (
	"encoding/json"
	"math"
	"time"

	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// Result is one engine's run of the benchmarks. Run fills Config,
// Benchmarks and Error; the caller, which knows how it opened the engine,
// fills the Header.
type Result struct {
	// Header names the engine, its version and options (fillsync
	// overrides sync with "batch"); the caller fills it.
	harness.Header
	// Config is what ran, defaults filled in.
	Config Config `json:"config"`
	// Benchmarks holds one entry per benchmark that ran, in order.
	Benchmarks []Bench `json:"benchmarks"`
	// Error summarizes every failure, "" if none.
	Error string `json:"error,omitempty"`
}

// Bench is what one benchmark measured. Durations are in nanoseconds in
// JSON; MB are 10^6 bytes, as in Go's testing package.
type Bench struct {
	// Name is the benchmark's name (FillSeq, ...).
	Name string `json:"name"`
	// Ops is how many operations were timed: entries written, read or
	// deleted (a batch of 1000 puts is 1000 operations).
	Ops int64 `json:"ops"`
	// KeySize and ValueSize are the entries' sizes in bytes.
	KeySize   int `json:"key_size"`
	ValueSize int `json:"value_size"`
	// Setup describes untimed preparation the benchmark needed, such as
	// loading a store for a read that no fill preceded; "" if none.
	Setup string `json:"setup,omitempty"`
	// Time is the time spent inside engine calls (and, for scans, copying
	// or hashing each entry as the engine hands it over). Generating keys
	// and values and verifying what was read are excluded. The headline.
	Time time.Duration `json:"time_ns"`
	// Cost is what the benchmark cost the process (harness.Cost; its
	// fields are the benchmark's own in JSON): its Wall is the elapsed
	// time, the harness's own work included, excluding the close and
	// reopen after a write; its CPU time (every thread, engine background
	// threads included), I/O and memory run from the start of the
	// benchmark to the end of the engine's Close after a write.
	harness.Cost
	// MicrosPerOp, OpsPerSec and MBPerSec are Ops and Bytes over Time.
	MicrosPerOp float64 `json:"us_per_op"`
	OpsPerSec   float64 `json:"ops_per_sec"`
	MBPerSec    float64 `json:"mb_per_sec"`
	// Bytes is the key and value bytes written or read (keys only for
	// deletes).
	Bytes int64 `json:"bytes"`
	// Latency is the distribution of single operations, of batches
	// (LatencyOf "batch"), or of chunks of ScanChunk entries for scans,
	// whose single steps are too short to time without distorting them.
	Latency   *measure.Percentiles `json:"latency,omitempty"`
	LatencyOf string               `json:"latency_of,omitempty"`
	// Percentiles are the latency percentiles Config.Percentiles asked
	// for, by measure.PercentileKey ("p99.99_ns"), of the same samples
	// as Latency.
	Percentiles map[string]time.Duration `json:"percentiles,omitempty"`
	// Cold says the benchmark, a read, started with the store's files out
	// of the page cache (Config.Cold).
	Cold bool `json:"cold,omitempty"`
	// Storage is the store's footprint after a benchmark that writes or
	// deletes; nil for reads.
	Storage *Storage `json:"storage,omitempty"`
	// Verify is what a read returned and how it compared.
	Verify *harness.Verification `json:"verify,omitempty"`
	// Error is why the benchmark failed; "" if it passed.
	Error string `json:"error,omitempty"`
	// JVM is what the JVM worker adds for a JVM engine; nil for a Go one.
	JVM *harness.JVM `json:"jvm,omitempty"`
	// Forks is how many fresh JVMs measured the benchmark (Config.Forks);
	// 0 for a single pass.
	Forks int `json:"forks,omitempty"`
	// Iterations is µs/op of engine time of every measured iteration of
	// every fork, fork after fork; MicrosPerOp is then their mean, Ops,
	// Bytes and Time their sums, and the other figures those of the last
	// fork's last iteration. Empty for a single pass.
	Iterations []float64 `json:"iterations_us_per_op,omitempty"`
	// MicrosPerOpError is the half-width of the 99.9% confidence
	// interval of MicrosPerOp over Iterations (MeanError, JMH's "Error");
	// absent for a single pass or two iterations or fewer.
	MicrosPerOpError float64 `json:"us_per_op_error,omitempty"`
}

// Storage is a store's footprint next to the flat array of its live keys
// and values, as the LmdbJava report tabulates it.
type Storage struct {
	// Disk is measured after the engine closed, so that buffered writes
	// are in their files (the LmdbJava report's measure). LSM engines
	// leave writes that were still in memory in their logs, uncompressed.
	// Its used bytes are the store's size in the reports; its actual
	// (allocated) and apparent bytes are as package workload defines them.
	Disk diskusage.Usage `json:"disk"`
	// Reopened is measured right after the engine opened the store again:
	// LSM engines replay their logs into table files on open, so its used
	// bytes are the data's footprint once recovered.
	Reopened diskusage.Usage `json:"reopened"`
	// Entries is how many entries the store holds.
	Entries int64 `json:"entries"`
	// Flat is Entries * (key size + value size): the bytes of a flat
	// array of the same data.
	Flat int64 `json:"flat_bytes"`
	// Overhead is how much larger Disk.Used is than Flat, in percent;
	// 0 when the store is empty.
	Overhead float64 `json:"overhead_pct"`
	// BytesPerEntry is Disk.Used / Entries; 0 when the store is empty.
	BytesPerEntry float64 `json:"bytes_per_entry"`
}

// NewStorage computes the figures of a store holding entries of
// keySize+valueSize bytes that occupies u.
func NewStorage(u diskusage.Usage, entries int64, keySize, valueSize int) Storage {
	s := Storage{Disk: u, Entries: entries, Flat: entries * int64(keySize+valueSize)}
	if entries > 0 {
		s.Overhead = float64(u.Used-s.Flat) / float64(s.Flat) * 100
		s.BytesPerEntry = float64(u.Used) / float64(entries)
	}
	return s
}

// UnmarshalJSON decodes a Bench and computes MicrosPerOpError from its
// Iterations, so that the error of a JVM worker's iterations, which the
// worker does not compute, is in every result the parent reads and writes.
func (b *Bench) UnmarshalJSON(data []byte) error {
	type plain Bench // without this method
	if err := json.Unmarshal(data, (*plain)(b)); err != nil {
		return err
	}
	if e := MeanError(b.Iterations, Confidence); !math.IsNaN(e) {
		b.MicrosPerOpError = e
	}
	return nil
}
