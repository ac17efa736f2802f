package mixed

import (
	"testing"
	"time"

	"github.com/tsbench/storage/workload/internal/flatmemory"
)

var shortRun, longRun = flatmemory.Flags("mixed")

// BenchmarkMemoryFlat shows that the harness's memory does not grow with
// the duration: it runs the workload for -mixed.short and -mixed.long
// (3s and 30s by default; 1m and 10m for the figure in results/small-sizes) on
// an engine that stores nothing, writing 200k points a second (the
// rate of a fast engine on the 2014 workload: 120M points in 10m), and
// fails if the long run's peak RSS or
// live heap is more than 1.2 times the short run's. It reports both
// peaks and their ratio.
//
//	go test -run '^$' -bench MemoryFlat -benchtime 1x ./workload/mixed/
func BenchmarkMemoryFlat(b *testing.B) {
	cfg := Config{Writers: 2, Readers: 2, Series: 2000, Batch: 1000, Points: 1e6, Rate: 2e5, Seed: 1}
	flatmemory.Check(b, *shortRun, *longRun, func(d time.Duration) int64 {
		c := cfg
		c.Duration = d
		start := time.Now()
		res, err := Run(newSynthetic(c), b.TempDir(), c)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("%v run: %d points written, %v in all, peak RSS %d B",
			d, res.Operation(KindWrite).Points, time.Since(start).Round(time.Second), res.Cost.PeakRSS)
		return res.Cost.PeakRSS
	})
}
