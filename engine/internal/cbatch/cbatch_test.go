package cbatch

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// decode reads an encoding the way cbatch.h and RocksDB do, as lines
// "put k=v" and "del k", and checks the header's count.
func decode(t *testing.T, rep []byte) []string {
	t.Helper()
	if len(rep) < headerSize {
		t.Fatalf("encoding of %d bytes has no header", len(rep))
	}
	count := binary.LittleEndian.Uint32(rep[8:headerSize])
	var got []string
	for p := rep[headerSize:]; len(p) > 0; {
		tag := p[0]
		klen, n := binary.Uvarint(p[1:])
		p = p[1+n:]
		key := p[:klen]
		p = p[klen:]
		switch tag {
		case tagPut:
			vlen, n := binary.Uvarint(p)
			p = p[n:]
			got = append(got, fmt.Sprintf("put %s=%s", key, p[:vlen]))
			p = p[vlen:]
		case tagDelete:
			got = append(got, fmt.Sprintf("del %s", key))
		default:
			t.Fatalf("unknown tag %d", tag)
		}
	}
	if int(count) != len(got) {
		t.Fatalf("header counts %d records, encoding holds %d", count, len(got))
	}
	return got
}

func TestEncoding(t *testing.T) {
	var b Buffer
	if b.Bytes() != nil || b.Len() != 0 {
		t.Fatal("a new buffer is not empty")
	}
	long := bytes.Repeat([]byte("v"), 300) // a two-byte varint length
	// The second round reuses the memory Reset kept.
	for round := range 2 {
		b.Put([]byte("a"), []byte("1"))
		b.Delete([]byte("b"))
		b.Put([]byte(""), nil)
		b.Put([]byte("c"), long)
		want := []string{"put a=1", "del b", "put =", "put c=" + string(long)}
		if got := decode(t, b.Bytes()); !slices.Equal(got, want) || b.Len() != len(want) {
			t.Fatalf("round %d: records %q (Len %d), want %q", round, got, b.Len(), want)
		}
		b.Reset()
		if b.Bytes() != nil || b.Len() != 0 {
			t.Fatalf("round %d: not empty after Reset", round)
		}
	}
}

func TestReuseAllocatesNothing(t *testing.T) {
	var b Buffer
	k, v := make([]byte, 24), make([]byte, 10)
	fill := func() {
		for range 1000 {
			b.Put(k, v)
		}
		b.Bytes()
		b.Reset()
	}
	fill()
	if n := testing.AllocsPerRun(10, fill); n != 0 {
		t.Errorf("a reused buffer allocates %v times per batch", n)
	}
}

// TestHeaderAgrees checks that cbatch.h and this package agree on the
// tags and header size.
func TestHeaderAgrees(t *testing.T) {
	for name, want := range map[string]int{"DELETE": tagDelete, "PUT": tagPut, "HEADER": headerSize} {
		m := regexp.MustCompile(`TSB_CBATCH_` + name + ` = (\d+)`).FindStringSubmatch(header)
		if m == nil {
			t.Fatalf("cbatch.h defines no TSB_CBATCH_%s", name)
		}
		if got, _ := strconv.Atoi(m[1]); got != want {
			t.Errorf("cbatch.h: TSB_CBATCH_%s = %d, Go has %d", name, got, want)
		}
	}
}

// BenchmarkPut measures recording one put shaped like the time-series
// workload's (24-byte key, 11-byte value) into a reused buffer.
func BenchmarkPut(b *testing.B) {
	var buf Buffer
	k, v := make([]byte, 24), make([]byte, 11)
	for b.Loop() {
		if buf.Len() == 1000 {
			buf.Reset()
		}
		buf.Put(k, v)
	}
}
