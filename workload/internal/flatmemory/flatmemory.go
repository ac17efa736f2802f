// Package flatmemory is the check the workloads that run for a duration
// (mixed, steady) make of their own memory in BenchmarkMemoryFlat: the
// harness's memory must not grow with the duration.
package flatmemory

import (
	"flag"
	"runtime"
	"testing"
	"time"
)

// Flags defines -prefix.short and -prefix.long, the durations of the
// short and the long run: 3s and 30s unless given.
func Flags(prefix string) (short, long *time.Duration) {
	return flag.Duration(prefix+".short", 3*time.Second, "the short run of BenchmarkMemoryFlat"),
		flag.Duration(prefix+".long", 30*time.Second, "the long run of BenchmarkMemoryFlat")
}

// maxRatio is how much more the long run may hold than the short one.
const maxRatio = 1.2

// Check runs run for short and for long, each returning its peak RSS,
// reports both peaks and the ratios of them and of the live heap after
// each, and fails b if the long run's peak RSS or live heap is more than
// maxRatio times the short run's.
func Check(b *testing.B, short, long time.Duration, run func(time.Duration) (peakRSS int64)) {
	b.Helper()
	measured := func(d time.Duration) (int64, uint64) {
		rss := run(d)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return rss, m.HeapAlloc
	}
	for b.Loop() {
		rssShort, heapShort := measured(short)
		rssLong, heapLong := measured(long)
		b.ReportMetric(float64(rssShort), "short-peak-rss-B")
		b.ReportMetric(float64(rssLong), "long-peak-rss-B")
		b.ReportMetric(float64(rssLong)/float64(rssShort), "rss-ratio")
		b.ReportMetric(float64(heapLong)/float64(heapShort), "heap-ratio")
		if rssShort == 0 {
			b.Skip("no peak RSS on this system")
		}
		if float64(rssLong) > maxRatio*float64(rssShort) || float64(heapLong) > maxRatio*float64(heapShort) {
			b.Errorf("peak RSS %d after %v, %d after %v; live heap %d and %d: memory grows with time",
				rssShort, short, rssLong, long, heapShort, heapLong)
		}
	}
}
