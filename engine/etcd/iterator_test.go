package etcd_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestIteratorPages scans more keys than several pages hold, in both
// directions and with random walks, bounded and not, and checks that an
// iterator keeps its snapshot across a Compact: the acceptance suite's
// stores fit in one page.
func TestIteratorPages(t *testing.T) {
	t.Parallel()
	const n = 7000 // pages of 1000, 2000, 4000, ...
	db := openDB(t, t.TempDir(), nil)
	defer db.Close()
	key := func(i int) []byte { return fmt.Appendf(nil, "k%05d", i) }
	b := db.NewBatch()
	for i := range n {
		b.Put(key(i), key(i))
		if (i+1)%1000 == 0 {
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.Close()

	// at checks that the iterator rests on key i, or on none for -1.
	at := func(it engine.Iterator, what string, ok bool, i int) {
		t.Helper()
		switch {
		case i < 0 && (ok || it.Valid()):
			t.Fatalf("%s: rests on %q, want none", what, it.Key())
		case i >= 0 && (!ok || !bytes.Equal(it.Key(), key(i)) || !bytes.Equal(it.Value(), key(i))):
			t.Fatalf("%s = %v at %q=%q, want %q (err %v)", what, ok, it.Key(), it.Value(), key(i), it.Err())
		}
	}
	for _, r := range []struct{ lo, hi int }{{0, n}, {1234, 5678}} {
		var opts engine.IterOptions
		if r.lo > 0 {
			opts = engine.IterOptions{LowerBound: key(r.lo), UpperBound: key(r.hi)}
		}
		it, err := db.NewIterator(opts)
		if err != nil {
			t.Fatal(err)
		}
		i := r.lo
		for ok := it.First(); ok; ok = it.Next() {
			at(it, "forward scan", ok, i)
			i++
		}
		if i != r.hi {
			t.Fatalf("forward scan of [%d, %d) ended at %d", r.lo, r.hi, i)
		}
		// SetBounds starts the pages small again, so that the reverse scan
		// and the walks read several too.
		reset := func() {
			t.Helper()
			if err := it.(engine.BoundsSetter).SetBounds(opts); err != nil {
				t.Fatal(err)
			}
		}
		reset()
		i = r.hi - 1
		for ok := it.Last(); ok; ok = it.Prev() {
			at(it, "reverse scan", ok, i)
			i--
		}
		if i != r.lo-1 {
			t.Fatalf("reverse scan of [%d, %d) ended at %d", r.lo, r.hi, i)
		}
		rng := rand.New(rand.NewPCG(1, uint64(r.lo)))
		for range 10 {
			reset()
			i = r.lo + rng.IntN(r.hi-r.lo)
			at(it, fmt.Sprintf("Seek(%d)", i), it.Seek(key(i)), i)
			for range 1000 {
				if rng.IntN(2) == 0 {
					i++
					if i == r.hi {
						at(it, "Next past the end", it.Next(), -1)
						break
					}
					at(it, "Next", it.Next(), i)
				} else {
					i--
					if i < r.lo {
						at(it, "Prev before the start", it.Prev(), -1)
						break
					}
					at(it, "Prev", it.Prev(), i)
				}
			}
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}

	// An open iterator keeps its snapshot through a Compact.
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if err := db.DeleteRange(nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil); err != nil {
		t.Fatal(err)
	}
	i := n - 1
	for ok := it.Last(); ok; ok = it.Prev() {
		at(it, "reverse scan after DeleteRange and Compact", ok, i)
		i--
	}
	if i != -1 || it.Err() != nil {
		t.Fatalf("the scan of a snapshot taken before DeleteRange and Compact stopped at %d: %v", i, it.Err())
	}
	inUse, onDisk, err := db.Sizes()
	if err != nil || inUse <= 0 || onDisk < inUse {
		t.Fatalf("Sizes = %d in use, %d on disk, %v", inUse, onDisk, err)
	}
}
