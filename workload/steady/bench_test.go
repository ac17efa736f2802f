package steady

import (
	"errors"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// discard is an engine that stores nothing: a run on it measures the
// harness alone, its schedule and generation.
type discard struct{}

func (discard) Get([]byte) ([]byte, error)                              { return nil, engine.ErrNotFound }
func (discard) Put(_, _ []byte) error                                   { return nil }
func (discard) Delete([]byte) error                                     { return nil }
func (discard) DeleteRange(_, _ []byte) error                           { return nil }
func (discard) NewBatch() engine.Batch                                  { return &discardBatch{} }
func (discard) NewIterator(engine.IterOptions) (engine.Iterator, error) { return emptyIter{}, nil }
func (discard) Compact(_, _ []byte) error                               { return nil }
func (discard) Close() error                                            { return nil }

type discardBatch struct{ n, size int }

func (b *discardBatch) Put(k, v []byte) { b.n, b.size = b.n+1, b.size+len(k)+len(v) }
func (b *discardBatch) Delete([]byte)   {}
func (b *discardBatch) Len() int        { return b.n }
func (b *discardBatch) Size() int       { return b.size }
func (b *discardBatch) Reset()          { b.n, b.size = 0, 0 }
func (b *discardBatch) Commit() error   { b.Reset(); return nil }
func (b *discardBatch) Close() error    { return nil }

type emptyIter struct{}

func (emptyIter) First() bool      { return false }
func (emptyIter) Last() bool       { return false }
func (emptyIter) Seek([]byte) bool { return false }
func (emptyIter) Next() bool       { return false }
func (emptyIter) Prev() bool       { return false }
func (emptyIter) Valid() bool      { return false }
func (emptyIter) Key() []byte      { return nil }
func (emptyIter) Value() []byte    { return nil }
func (emptyIter) Err() error       { return nil }
func (emptyIter) Close() error     { return nil }

// BenchmarkHarness runs one writer on the schedule at 3M points/s for a
// second per iteration against an engine that stores nothing,
// with retention, late batches, points out of order and churn on. Run
// it with -cpu 1: no unsent points mean the harness kept the rate on one
// core, and points/cpu-s is the rate one core could keep (its p99 lag
// behind the schedule is that of a loaded machine's scheduler too).
func BenchmarkHarness(b *testing.B) {
	cfg := Config{
		Duration: time.Second, Rate: 3_000_000, Writers: 1,
		Series: 10_000, Batch: 1000, Speedup: 100, Retention: 30 * time.Second,
		Late: 0.05, LateWindow: 5 * time.Second, OutOfOrder: 0.3, Churn: 0.01, ChurnEvery: 10 * time.Second, Seed: 1,
	}
	var written, unsent int64
	var lag, cpu, elapsed time.Duration
	for b.Loop() {
		// The final check finds nothing stored, as it should here.
		res, err := Run(discard{}, b.TempDir(), cfg)
		if res == nil || (err != nil && !errors.Is(err, ErrVerification)) {
			b.Fatal(err)
		}
		written += res.Written
		unsent += res.Unsent
		lag = max(lag, res.Write.P99)
		cpu += res.Cost.CPUUser + res.Cost.CPUSys
		elapsed += res.Elapsed
	}
	b.ReportMetric(float64(written)/elapsed.Seconds(), "points/s")
	b.ReportMetric(float64(unsent), "unsent")
	b.ReportMetric(float64(lag.Nanoseconds()), "p99-lag-ns")
	// What one core could schedule and generate: the process's CPU time
	// per point, every goroutine of the harness included.
	b.ReportMetric(float64(written)/cpu.Seconds(), "points/cpu-s")
}

// BenchmarkGenerate is the writer's generation alone, per point: keys,
// values and the out-of-order shuffle, as fill makes them.
func BenchmarkGenerate(b *testing.B) {
	cfg := Config{Duration: time.Second, Rate: 1e6, Series: 10_000, Batch: 1000, Speedup: 100, Retention: 30 * time.Second,
		OutOfOrder: 0.3, Churn: 0.01, ChurnEvery: 10 * time.Second}.WithDefaults()
	w := &writer{r: &runner{cfg: cfg, m: newModel(cfg, nil)}}
	var n int64
	for b.Loop() {
		w.fill(n)
		n++
	}
	b.ReportMetric(float64(n*cfg.Batch)/b.Elapsed().Seconds(), "points/s")
}
