package scanbuf

import (
	"bytes"
	"testing"
)

func TestChunk(t *testing.T) {
	var c Chunk
	in := [][2]string{{"a", "1"}, {"", ""}, {"key", "value"}}
	for round := 0; round < 2; round++ {
		k := []byte("scratch")
		for _, e := range in {
			k = append(k[:0], e[0]...)
			c.Add(k, []byte(e[1]))
		}
		k[0] = 'X' // the chunk must hold copies
		if c.Len() != len(in) {
			t.Fatalf("round %d: Len = %d, want %d", round, c.Len(), len(in))
		}
		j := 0
		for gk, gv := range c.All() {
			if e := in[j]; !bytes.Equal(gk, []byte(e[0])) || !bytes.Equal(gv, []byte(e[1])) {
				t.Errorf("round %d: entry %d = %q, %q; want %q, %q", round, j, gk, gv, e[0], e[1])
			}
			j++
		}
		if j != len(in) {
			t.Errorf("round %d: All yielded %d entries, want %d", round, j, len(in))
		}
		c.Reset()
		if c.Len() != 0 {
			t.Fatalf("Len after Reset = %d", c.Len())
		}
	}
}

func TestChunkReusesBuffers(t *testing.T) {
	var c Chunk
	k, v := make([]byte, 24), make([]byte, 10)
	fill := func() {
		for range 1024 {
			c.Add(k, v)
		}
		c.Reset()
	}
	fill()
	if n := testing.AllocsPerRun(10, fill); n != 0 {
		t.Fatalf("refilling a grown chunk allocates %v times, want 0", n)
	}
}
