package timeseries

import (
	"testing"

	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

// The harness's own costs per point, to compare with the engines': run
// with -benchmem to see that none of them allocates.

// BenchmarkVerifyChunk copies a chunk of entries out as a scan does and
// checks them; ns/point is reported.
func BenchmarkVerifyChunk(b *testing.B) {
	g := points.Generator{Series: 1, Seed: 1}
	var buf points.Batch
	buf.Fill(g, 0, scanbuf.ChunkEntries)
	var ch scanbuf.Chunk
	v := &harness.Verification{}
	b.ReportAllocs()
	for range b.N {
		c := checker{gen: g, v: v, next: 0, hi: scanbuf.ChunkEntries}
		for j := range buf.Len() {
			ch.Add(buf.Key(j), buf.Value(j))
		}
		verifyChunk(&ch, &c)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*scanbuf.ChunkEntries), "ns/point")
}

// BenchmarkRunHarness runs the whole workload on an engine that stores
// nothing (see synthetic): the harness's cost per point over all six
// steps, engine time excluded only in that the engine does nothing.
func BenchmarkRunHarness(b *testing.B) {
	cfg := Config{Points: 1_000_000, Series: 10_000, Batch: 1000, Seed: 1}
	b.ReportAllocs()
	for range b.N {
		res, err := Run(newSynthetic(cfg), b.TempDir(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		_ = res
	}
	// Each run handles 3.5 N points: N written, N read, N/2 deleted, N/2
	// read, N/2 written (compaction handles none).
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*cfg.Points*7/2), "ns/point")
}

func TestVerifyNoAlloc(t *testing.T) {
	g := points.Generator{Series: 1, Seed: 1}
	var b points.Batch
	b.Fill(g, 0, scanbuf.ChunkEntries)
	var ch scanbuf.Chunk
	v := &harness.Verification{}
	if n := testing.AllocsPerRun(100, func() {
		c := checker{gen: g, v: v, series: 0, next: 0, hi: scanbuf.ChunkEntries}
		for j := range b.Len() {
			ch.Add(b.Key(j), b.Value(j))
		}
		verifyChunk(&ch, &c)
		c.finish()
	}); n != 0 {
		t.Errorf("copying and verifying a chunk allocates %v times", n)
	}
	if v.Missing+v.Unexpected+v.Wrong != 0 {
		t.Errorf("clean chunk: %+v", v)
	}
}
