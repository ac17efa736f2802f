package workload

import (
	"bytes"
	"testing"

	"github.com/tsbench/storage/internal/scanbuf"
)

func TestGeneratorDeterministic(t *testing.T) {
	fill := func(seed uint64) batchBuf {
		var b batchBuf
		b.fill(Generator{Series: 7, Seed: seed}, 1234, 100)
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
	var b batchBuf
	var lastKey []byte
	perSeries := map[uint64][]byte{}
	for start := int64(0); start < 95; start += 7 {
		b.fill(g, start, min(7, 95-start))
		seen := map[uint64]bool{}
		for j := range b.len() {
			s, ts, seq, err := ParseKey(b.key(j))
			if err != nil {
				t.Fatal(err)
			}
			if seen[s] {
				t.Fatalf("series %d twice in a batch", s)
			}
			seen[s] = true
			if lastKey != nil {
				_, lts, lseq, _ := ParseKey(lastKey)
				if ts <= lts || seq != lseq+1 {
					t.Fatalf("point %d after %d: time or sequence not increasing", seq, lseq)
				}
			}
			if prev := perSeries[s]; prev != nil && bytes.Compare(prev, b.key(j)) >= 0 {
				t.Fatalf("series %d out of order", s)
			}
			perSeries[s] = append([]byte(nil), b.key(j)...)
			lastKey = perSeries[s]
			if v, err := ParseValue(b.value(j)); err != nil || v != g.Value(seq) {
				t.Fatalf("value of seq %d: %d, %v", seq, v, err)
			}
		}
		if want := int64(len(b.keys) + len(b.vals)); b.logical != want {
			t.Fatalf("logical %d, want %d", b.logical, want)
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
		var b batchBuf
		b.fill(g, 5, 30)
		if got := g.LogicalBytes(5, 35); got != b.logical {
			t.Errorf("LogicalBytes = %d, encoded batch has %d", got, b.logical)
		}
	}
}

// TestStepAccounting pins how many points each step handles, per series,
// when N is odd or not a multiple of the series.
func TestStepAccounting(t *testing.T) {
	cfg := Config{Points: 10, Series: 4, Batch: 2}
	g := Generator{Series: cfg.Series}
	n, h := cfg.Points, cfg.Points/2
	// Series 0 and 1 get 3 points, 2 and 3 get 2 (indices 0..9, round robin).
	// The delete removes indices 0..4: two of series 0, one of each other.
	// The second write adds indices 10..14: two of series 2, one of each other.
	want := []struct{ written, deleted, kept, final int64 }{
		{3, 2, 1, 2}, {3, 1, 2, 3}, {2, 1, 1, 3}, {2, 1, 1, 2},
	}
	for s, w := range want {
		s := int64(s)
		got := [4]int64{g.Count(0, n, s), g.Count(0, h, s), g.Count(h, n, s), g.Count(h, n+h, s)}
		if got != [4]int64{w.written, w.deleted, w.kept, w.final} {
			t.Errorf("series %d: written, deleted, kept, final = %v, want %v", s, got, w)
		}
	}
	labels := []string{"Write 10 values", "Query 10 values", "Delete 5 values", "Compaction", "Query 5 values", "Write 5 values"}
	for i, name := range StepNames {
		if got := Label(name, cfg); got != labels[i] {
			t.Errorf("Label(%s) = %q, want %q", name, got, labels[i])
		}
	}
	odd := Config{Points: 100_000_001}
	if got := Label(StepQueryAfterDelete, odd); got != "Query 50000001 values" {
		t.Errorf("odd N: %q", got)
	}
	if got := Label(StepDelete, Config{Points: 100_000_000}); got != "Delete 50M values" {
		t.Errorf("%q", got)
	}
}

func TestFillNoAlloc(t *testing.T) {
	var b batchBuf
	g := Generator{Series: 1000, Seed: 1}
	b.fill(g, 0, 1000)
	start := int64(0)
	if n := testing.AllocsPerRun(100, func() { start += 1000; b.fill(g, start, 1000) }); n != 0 {
		t.Errorf("fill allocates %v times per batch", n)
	}
}

func TestVerifyNoAlloc(t *testing.T) {
	g := Generator{Series: 1, Seed: 1}
	var b batchBuf
	b.fill(g, 0, chunkPoints)
	var ch scanbuf.Chunk
	v := &Verification{}
	if n := testing.AllocsPerRun(100, func() {
		c := checker{gen: g, v: v, series: 0, next: 0, hi: chunkPoints}
		for j := range b.len() {
			ch.Add(b.key(j), b.value(j))
		}
		verifyChunk(&ch, &c)
		c.finish()
	}); n != 0 {
		t.Errorf("copying and verifying a chunk allocates %v times", n)
	}
	if v.Missing+v.Unexpected+v.WrongValues != 0 {
		t.Errorf("clean chunk: %+v", v)
	}
}
