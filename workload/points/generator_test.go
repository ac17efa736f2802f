package points

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine/tskey"
)

func TestGeneratorDeterministic(t *testing.T) {
	fill := func(seed uint64) Batch {
		var b Batch
		b.Fill(Generator{Series: 7, Seed: seed}, 1234, 100)
		return b
	}
	a, b, c := fill(1), fill(1), fill(2)
	if !bytes.Equal(a.keys, b.keys) || !bytes.Equal(a.vals, b.vals) {
		t.Error("same seed, different points")
	}
	if !bytes.Equal(a.keys, c.keys) {
		t.Error("keys depend on the seed")
	}
	if bytes.Equal(a.vals, c.vals) {
		t.Error("different seeds, same values")
	}
	// Pinned: a change here changes every published run.
	g := Generator{Series: 3, Seed: 42}
	if v := g.Value(1); v != -4767286540954276203 {
		t.Errorf("Value(1) with seed 42 = %d", v)
	}
	if s, ts, seq := g.Point(4); s != 1 || ts != Epoch+4*Interval || seq != 5 {
		t.Errorf("Point(4) = %d, %d, %d", s, ts, seq)
	}
}

// TestGeneratorStream checks the shape of the stream: each batch holds
// distinct series, timestamps and sequence numbers increase, and each
// series' points are in increasing time.
func TestGeneratorStream(t *testing.T) {
	g := Generator{Series: 10, Seed: 3}
	var b Batch
	var lastKey []byte
	perSeries := map[uint64][]byte{}
	for start := int64(0); start < 95; start += 7 {
		b.Fill(g, start, min(7, 95-start))
		seen := map[uint64]bool{}
		for j := range b.Len() {
			s, ts, seq, err := tskey.ParseKey(b.Key(j))
			if err != nil {
				t.Fatal(err)
			}
			if seen[s] {
				t.Fatalf("series %d twice in a batch", s)
			}
			seen[s] = true
			if lastKey != nil {
				_, lts, lseq, _ := tskey.ParseKey(lastKey)
				if ts <= lts || seq != lseq+1 {
					t.Fatalf("point %d after %d: time or sequence not increasing", seq, lseq)
				}
			}
			if prev := perSeries[s]; prev != nil && bytes.Compare(prev, b.Key(j)) >= 0 {
				t.Fatalf("series %d out of order", s)
			}
			perSeries[s] = append([]byte(nil), b.Key(j)...)
			lastKey = perSeries[s]
			if v, err := ParseValue(b.Value(j)); err != nil || v != g.Value(seq) {
				t.Fatalf("value of seq %d: %d, %v", seq, v, err)
			}
		}
		if want := int64(len(b.keys) + len(b.vals)); b.Logical() != want {
			t.Fatalf("logical %d, want %d", b.Logical(), want)
		}
	}
}

// TestGeneratorCounts checks Count, First and LogicalBytes by brute force,
// including sizes that are not multiples of the series or of two.
func TestGeneratorCounts(t *testing.T) {
	for _, series := range []int64{1, 2, 3, 7, 10} {
		g := Generator{Series: series, Seed: 1}
		for lo := int64(0); lo < 25; lo++ {
			for hi := lo; hi < 40; hi++ {
				var total int64
				for s := range series {
					var n int64
					first := int64(-1)
					for i := lo; i < hi; i++ {
						if i%series == s {
							n++
						}
					}
					for i := lo; first < 0; i++ {
						if i%series == s {
							first = i
						}
					}
					if got := g.Count(lo, hi, s); got != n {
						t.Fatalf("S=%d Count(%d, %d, %d) = %d, want %d", series, lo, hi, s, got, n)
					}
					if got := g.First(lo, s); got != first {
						t.Fatalf("S=%d First(%d, %d) = %d, want %d", series, lo, s, got, first)
					}
					total += n
				}
				if total != hi-lo {
					t.Fatalf("S=%d [%d,%d): series counts sum to %d", series, lo, hi, total)
				}
			}
		}
		var b Batch
		b.Fill(g, 5, 30)
		if got := g.LogicalBytes(5, 35); got != b.Logical() {
			t.Errorf("LogicalBytes = %d, encoded batch has %d", got, b.Logical())
		}
	}
}

func TestFillNoAlloc(t *testing.T) {
	var b Batch
	g := Generator{Series: 1000, Seed: 1}
	b.Fill(g, 0, 1000)
	start := int64(0)
	if n := testing.AllocsPerRun(100, func() { start += 1000; b.Fill(g, start, 1000) }); n != 0 {
		t.Errorf("fill allocates %v times per batch", n)
	}
}

// TestCheckValue: a point's own value passes without allocating; another
// value, or bytes that do not decode, say what is wrong.
func TestCheckValue(t *testing.T) {
	g := Generator{Series: 10, Seed: 7}
	right := AppendValue(nil, g.Value(42))
	if bad := g.CheckValue(42, right); bad != "" {
		t.Errorf("the right value: %q", bad)
	}
	if n := testing.AllocsPerRun(100, func() { g.CheckValue(42, right) }); n != 0 {
		t.Errorf("%v allocations to check a right value", n)
	}
	if bad := g.CheckValue(43, right); bad != fmt.Sprintf("value %d, want %d", g.Value(42), g.Value(43)) {
		t.Errorf("another point's value: %q", bad)
	}
	if bad := g.CheckValue(42, []byte{0xff}); bad == "" {
		t.Error("bytes that do not decode passed")
	}
}
