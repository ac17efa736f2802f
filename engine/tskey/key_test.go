package tskey

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestKeyRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := [][3]uint64{{0, 0, 0}, {1, 2, 3}, {math.MaxUint64, math.MaxUint64, math.MaxUint64}, {0x0102030405060708, 0x1112131415161718, 0x2122232425262728}}
	for range 1000 {
		cases = append(cases, [3]uint64{r.Uint64(), r.Uint64(), r.Uint64()})
	}
	for _, c := range cases {
		k := AppendKey(nil, c[0], c[1], c[2])
		var put [KeySize]byte
		PutKey(put[:], c[0], c[1], c[2])
		if len(k) != KeySize || !bytes.Equal(k, put[:]) {
			t.Fatalf("AppendKey %x != PutKey %x", k, put)
		}
		s, ts, seq, err := ParseKey(k)
		if err != nil || s != c[0] || ts != c[1] || seq != c[2] {
			t.Fatalf("ParseKey(%x) = %d %d %d %v, want %v", k, s, ts, seq, err, c)
		}
	}
	// The documented layout, byte for byte.
	want := []byte{1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28}
	if k := AppendKey(nil, cases[3][0], cases[3][1], cases[3][2]); !bytes.Equal(k, want) {
		t.Errorf("layout %x, want %x", k, want)
	}
}

func TestKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	small := func() uint64 { return r.Uint64N(4) } // many ties
	for range 20000 {
		a := [3]uint64{small(), small(), small()}
		b := [3]uint64{small(), small(), small()}
		if r.IntN(2) == 0 {
			a = [3]uint64{r.Uint64(), r.Uint64(), r.Uint64()}
		}
		want := cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]), cmp.Compare(a[2], b[2]))
		got := bytes.Compare(AppendKey(nil, a[0], a[1], a[2]), AppendKey(nil, b[0], b[1], b[2]))
		if got != want {
			t.Fatalf("order of %v vs %v: bytes %d, tuples %d", a, b, got, want)
		}
	}
}

func TestParseKeyBadLength(t *testing.T) {
	for _, n := range []int{0, 1, 23, 25, 48} {
		if _, _, _, err := ParseKey(make([]byte, n)); !errors.Is(err, ErrBadKey) {
			t.Errorf("ParseKey(%d bytes) = %v, want ErrBadKey", n, err)
		}
	}
}

func TestSeriesBounds(t *testing.T) {
	buf := make([]byte, 2*KeySize)
	for _, s := range []uint64{0, 1, 12345, math.MaxUint64 - 1} {
		lower, upper := SeriesBounds(buf, s)
		in := [][]byte{AppendKey(nil, s, 0, 0), AppendKey(nil, s, 5, 1), AppendKey(nil, s, math.MaxUint64, math.MaxUint64)}
		out := [][]byte{AppendKey(nil, s+1, 0, 0)}
		if s > 0 {
			out = append(out, AppendKey(nil, s-1, math.MaxUint64, math.MaxUint64))
		}
		for _, k := range in {
			if bytes.Compare(k, lower) < 0 || bytes.Compare(k, upper) >= 0 {
				t.Errorf("series %d: key %x outside [%x, %x)", s, k, lower, upper)
			}
		}
		for _, k := range out {
			if bytes.Compare(k, lower) >= 0 && bytes.Compare(k, upper) < 0 {
				t.Errorf("series %d: key %x inside [%x, %x)", s, k, lower, upper)
			}
		}
	}
	lower, upper := SeriesBounds(nil, math.MaxUint64)
	if upper != nil || !bytes.Equal(lower, AppendKey(nil, math.MaxUint64, 0, 0)) {
		t.Errorf("last series: [%x, %x), want an unbounded upper", lower, upper)
	}
	if n := testing.AllocsPerRun(100, func() { SeriesBounds(buf, 7) }); n != 0 {
		t.Errorf("SeriesBounds allocates %v times with a reused buffer", n)
	}
}

func TestTimeBounds(t *testing.T) {
	buf := make([]byte, 2*KeySize)
	start, end := TimeBounds(buf, 9, 100, 200)
	for _, c := range []struct {
		s, ts, seq uint64
		in         bool
	}{
		{9, 100, 0, true}, {9, 100, 1, true}, {9, 199, math.MaxUint64, true},
		{9, 99, math.MaxUint64, false}, {9, 200, 1, false}, {8, 150, 1, false}, {10, 150, 1, false},
	} {
		k := AppendKey(nil, c.s, c.ts, c.seq)
		if in := bytes.Compare(k, start) >= 0 && bytes.Compare(k, end) < 0; in != c.in {
			t.Errorf("key (%d,%d,%d) in range = %v, want %v", c.s, c.ts, c.seq, in, c.in)
		}
	}
	if n := testing.AllocsPerRun(100, func() { TimeBounds(buf, 7, 1, 2) }); n != 0 {
		t.Errorf("TimeBounds allocates %v times with a reused buffer", n)
	}
}

func TestKeyNoAlloc(t *testing.T) {
	buf := make([]byte, 0, KeySize)
	if n := testing.AllocsPerRun(100, func() { PutKey(buf[:KeySize], 1, 2, 3) }); n != 0 {
		t.Errorf("PutKey allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { buf = AppendKey(buf[:0], 1, 2, 3) }); n != 0 {
		t.Errorf("AppendKey allocates %v times into a buffer with room", n)
	}
	k := AppendKey(nil, 1, 2, 3)
	if n := testing.AllocsPerRun(100, func() { ParseKey(k) }); n != 0 {
		t.Errorf("ParseKey allocates %v times", n)
	}
}
