package steady

import (
	"errors"
	"testing"
	"time"

	"github.com/tsbench/storage/workload/internal/flatmemory"
)

var shortRun, longRun = flatmemory.Flags("steady")

// BenchmarkMemoryFlat shows that the harness's memory does not grow with
// the duration: it runs the workload for -steady.short and -steady.long
// (3s and 30s by default) on an engine that stores nothing, 200k points a
// second with retention, late batches, out-of-order points, churn and two
// readers, and fails if the long run's peak RSS or live heap is more than
// 1.2 times the short run's. It reports both peaks and their ratio.
//
//	go test -run '^$' -bench MemoryFlat -benchtime 1x ./workload/steady/
func BenchmarkMemoryFlat(b *testing.B) {
	cfg := Config{Rate: 2e5, Writers: 2, Readers: 2, Series: 2000, Batch: 1000, Speedup: 100, Retention: time.Minute,
		Late: 0.05, LateWindow: 10 * time.Second, OutOfOrder: 0.3, Churn: 0.01, ChurnEvery: 10 * time.Second, Seed: 1}
	flatmemory.Check(b, *shortRun, *longRun, func(d time.Duration) int64 {
		c := cfg
		c.Duration = d
		// The reads and the final check find nothing stored, as they
		// should here.
		res, err := Run(discard{}, b.TempDir(), c)
		if res == nil || (err != nil && !errors.Is(err, ErrVerification)) {
			b.Fatal(err)
		}
		b.Logf("%v run: %d points written, peak RSS %d B", d, res.Written, res.Cost.PeakRSS)
		return res.Cost.PeakRSS
	})
}
