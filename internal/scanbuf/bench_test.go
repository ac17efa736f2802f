package scanbuf

import "testing"

// BenchmarkAdd is the per-entry cost a timed scan pays to copy a
// time-series entry (24-byte key, 10-byte value) out.
func BenchmarkAdd(b *testing.B) {
	var c Chunk
	k, v := make([]byte, 24), make([]byte, 10)
	for b.Loop() {
		for range 1024 {
			c.Add(k, v)
		}
		c.Reset()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1024), "ns/entry")
}
