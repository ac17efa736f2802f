package points

import "testing"

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
	var buf Batch
	b.ReportAllocs()
	for i := range b.N {
		buf.Fill(g, int64(i)*1000, 1000)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/point")
}
