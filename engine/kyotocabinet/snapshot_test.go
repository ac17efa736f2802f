package kyotocabinet_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/memory"
)

// TestSnapshotUnderWrites walks iterators at random, in both directions,
// while the same goroutine overwrites, inserts and deletes keys around
// and under them, and requires every step to match engine/memory's
// snapshot iterators given the same writes. It exercises the views that
// stand in for the snapshots Kyoto Cabinet lacks far more than the shared
// suite does, and AppendEntries's fill beside them.
func TestSnapshotUnderWrites(t *testing.T) {
	db := enginetest.Open(t, "kyotocabinet", t.TempDir(), nil)
	ref := memory.New()
	defer ref.Close()
	rng := rand.New(rand.NewPCG(7, 7))
	key := func() []byte { return fmt.Appendf(nil, "k%03d", rng.IntN(200)) }
	both := func(what string, err, rerr error) {
		t.Helper()
		if err != nil || rerr != nil {
			t.Fatalf("%s: engine %v, reference %v", what, err, rerr)
		}
	}
	for range 100 {
		k := key()
		both("Put", db.Put(k, k), ref.Put(k, k))
	}
	for round := range 40 {
		var lower, upper []byte
		if rng.IntN(3) > 0 {
			lower = key()
		}
		if rng.IntN(3) > 0 {
			upper = key()
		}
		if upper != nil && bytes.Compare(lower, upper) > 0 {
			lower, upper = upper, lower // inverted bounds are refused
		}
		opts := engine.IterOptions{LowerBound: lower, UpperBound: upper}
		it := enginetest.NewIterator(t, db, opts)
		rit, _ := ref.NewIterator(opts)
		for step := range 300 {
			var ok, rok bool
			var what string
			switch r := rng.IntN(10); {
			case r == 0:
				what, ok, rok = "First", it.First(), rit.First()
			case r == 1:
				what, ok, rok = "Last", it.Last(), rit.Last()
			case r == 2:
				k := key()
				what, ok, rok = fmt.Sprintf("Seek(%s)", k), it.Seek(k), rit.Seek(k)
			case r < 6:
				what, ok, rok = "Next", it.Next(), rit.Next()
			case r < 9:
				what, ok, rok = "Prev", it.Prev(), rit.Prev()
			default:
				// A run copied at once, from the fill's fast path while
				// the view is empty, entry by entry once it is not.
				max, first := 1+rng.IntN(40), rng.IntN(4) == 0
				what = fmt.Sprintf("AppendEntries(%d, first %v)", max, first)
				got, n, more := engine.AppendEntries(it, nil, max, first)
				want, rn, rmore := engine.AppendEntries(rit, nil, max, first)
				if !bytes.Equal(got, want) || n != rn || more != rmore {
					t.Fatalf("round %d step %d, %s in [%q, %q): engine %d entries, more %v, %q; reference %d, more %v, %q",
						round, step, what, lower, upper, n, more, got, rn, rmore, want)
				}
				ok, rok = it.Valid(), rit.Valid()
			}
			if ok != rok || (ok && (!bytes.Equal(it.Key(), rit.Key()) || !bytes.Equal(it.Value(), rit.Value()))) {
				t.Fatalf("round %d step %d, %s in [%q, %q): engine %v at %q=%q, reference %v at %q=%q",
					round, step, what, lower, upper, ok, it.Key(), it.Value(), rok, rit.Key(), rit.Value())
			}
			// Write between steps, under the iterators.
			switch k, v := key(), fmt.Appendf(nil, "r%d.%d", round, step); rng.IntN(6) {
			case 0, 1:
				both("Put", db.Put(k, v), ref.Put(k, v))
			case 2:
				both("Delete", db.Delete(k), ref.Delete(k))
			case 3:
				end := append(bytes.Clone(k), 0xff)
				both("DeleteRange", db.DeleteRange(k, end), ref.DeleteRange(k, end))
			case 4:
				b, rb := db.NewBatch(), ref.NewBatch()
				for range 3 {
					p, d := key(), key()
					b.Put(p, v)
					rb.Put(p, v)
					b.Delete(d)
					rb.Delete(d)
				}
				both("Commit", b.Commit(), rb.Commit())
				b.Close()
				rb.Close()
			}
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		rit.Close()
	}
}
