package workload

import (
	"testing"

	"github.com/tsbench/storage/internal/scanbuf"
)

// The harness's own costs per point, to compare with the engines': run
// with -benchmem to see that none of them allocates.

func BenchmarkPutKey(b *testing.B) {
	b.ReportAllocs()
	var k [KeySize]byte
	for i := range b.N {
		PutKey(k[:], uint64(i), uint64(i), uint64(i))
	}
}

func BenchmarkParseKey(b *testing.B) {
	b.ReportAllocs()
	k := AppendKey(nil, 1, 2, 3)
	for range b.N {
		ParseKey(k)
	}
}

func BenchmarkAppendValue(b *testing.B) {
	b.ReportAllocs()
	g := Generator{Series: 1, Seed: 1}
	buf := make([]byte, 0, 16)
	for i := range b.N {
		buf = AppendValue(buf[:0], g.Value(uint64(i)))
	}
}

func BenchmarkParseValue(b *testing.B) {
	b.ReportAllocs()
	v := AppendValue(nil, -1)
	for range b.N {
		ParseValue(v)
	}
}

// BenchmarkFillBatch generates and encodes one batch of 1000 points, the
// work kept outside the timed write; ns/point is reported.
func BenchmarkFillBatch(b *testing.B) {
	g := Generator{Series: 500_000, Seed: 1}
	var buf batchBuf
	b.ReportAllocs()
	for i := range b.N {
		buf.fill(g, int64(i)*1000, 1000)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/point")
}

// BenchmarkVerifyChunk copies a chunk of entries out as a scan does and
// checks them; ns/point is reported.
func BenchmarkVerifyChunk(b *testing.B) {
	g := Generator{Series: 1, Seed: 1}
	var buf batchBuf
	buf.fill(g, 0, chunkPoints)
	var ch scanbuf.Chunk
	v := &Verification{}
	b.ReportAllocs()
	for range b.N {
		c := checker{gen: g, v: v, next: 0, hi: chunkPoints}
		for j := range buf.len() {
			ch.Add(buf.key(j), buf.value(j))
		}
		verifyChunk(&ch, &c)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunkPoints), "ns/point")
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
