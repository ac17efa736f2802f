package tskey

import "testing"

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
