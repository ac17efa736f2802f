package enginetest

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// testConcurrentReaders runs readers beside one writer. Each batch writes
// (or deletes) a pair of keys a/K and b/K with the same value, the batch's
// round number, zero-padded so that later rounds sort higher. A reader's
// iterator must see both halves of a pair or neither, with equal values;
// and each reader must never see a key go back to an older round, across
// its Gets and iterators alike.
func testConcurrentReaders(t *testing.T, db engine.Engine) {
	const (
		pairs   = 8
		readers = 3
		rounds  = 300
		// The writer waits for the readers to make a pass every other
		// round, up to maxTime, so that reads overlap writes however the
		// scheduler runs them.
		maxTime = 5 * time.Second
	)
	pair := pairKeys(engine.LimitsOf(db).AtomicPrefix)
	done := make(chan struct{})
	var passes atomic.Int64
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(done)
	for r := range readers {
		wg.Go(func() {
			seen := map[string]string{} // newest round seen per key
			for pass := 0; ; pass++ {
				if !readPairs(t, db, pairs, pair, seen, fmt.Sprintf("reader %d pass %d", r, pass)) {
					return
				}
				passes.Add(1)
				select {
				case <-done:
					return
				default:
				}
			}
		})
	}
	b := newBatch(t, db)
	start := time.Now()
	for round := 1; round <= rounds; round++ {
		for passes.Load() < int64(round/2) && time.Since(start) < maxTime {
			runtime.Gosched()
		}
		k := round % pairs
		ka, kb := pair(k)
		a, bk := []byte(ka), []byte(kb)
		if round%5 == 0 {
			b.Delete(a)
			b.Delete(bk)
		} else {
			v := fmt.Appendf(nil, "%08d", round)
			b.Put(a, v)
			// Filler between the halves widens the window in which a
			// non-atomic commit would show half a batch.
			for f := range 8 {
				b.Put(fmt.Appendf(nil, "f/%d", f), v)
			}
			b.Put(bk, v)
		}
		commit(t, b)
	}
}

// pairKeys returns the two keys of pair k: a/K and b/K, or, on an engine
// whose batches are atomic only within prefixes of n bytes
// (engine.Limits.AtomicPrefix), two keys sharing their first n bytes, so
// that a batch of a pair is atomic there too.
func pairKeys(n int) func(k int) (string, string) {
	if n == 0 {
		return func(k int) (string, string) { return fmt.Sprintf("a/%d", k), fmt.Sprintf("b/%d", k) }
	}
	return func(k int) (string, string) {
		p := fmt.Sprintf("p%0*d/", max(n-2, 1), k)
		return p + "a", p + "b"
	}
}

// readPairs checks one snapshot and one round of Gets; it reports false
// after a failure.
func readPairs(t *testing.T, db engine.Engine, pairs int, pair func(int) (string, string), seen map[string]string, who string) bool {
	newer := func(k, v string) bool {
		if v < seen[k] {
			t.Errorf("%s: %s went back from round %s to %s", who, k, seen[k], v)
			return false
		}
		seen[k] = v
		return true
	}
	got, err := scanAll(db)
	if err != nil {
		t.Errorf("%s: iterator: %v", who, err)
		return false
	}
	snap := map[string]string{}
	for _, e := range got {
		snap[e.k] = e.v
	}
	for k := range pairs {
		a, b := pair(k)
		va, okA := snap[a]
		vb, okB := snap[b]
		if okA != okB || va != vb {
			t.Errorf("%s: snapshot holds half a batch: %s=%q (%v), %s=%q (%v)", who, a, va, okA, b, vb, okB)
			return false
		}
		if okA && !newer(a, va) {
			return false
		}
	}
	for k := range pairs {
		key, _ := pair(k)
		v, err := db.Get([]byte(key))
		switch {
		case errors.Is(err, engine.ErrNotFound):
		case err != nil:
			t.Errorf("%s: Get(%s): %v", who, key, err)
			return false
		case !newer(key, string(v)):
			return false
		}
	}
	return true
}

// testConcurrentWriters runs several writers at once, each committing
// batches and single Puts of its own keys, and deleting some it wrote
// before: afterwards, and after a reopen, the store must hold exactly
// what every writer left, whatever the interleaving.
func testConcurrentWriters(t *testing.T, open Factory, dir string) {
	const writers, rounds, perBatch = 4, 40, 10
	db := mustOpen(t, open, dir)
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			b := db.NewBatch()
			defer b.Close()
			for r := range rounds {
				for i := range perBatch {
					b.Put(fmt.Appendf(nil, "w%d/%03d/%02d", w, r, i), fmt.Appendf(nil, "%d.%d.%d", w, r, i))
				}
				if r > 0 {
					b.Delete(fmt.Appendf(nil, "w%d/%03d/%02d", w, r-1, 0))
				}
				if err := b.Commit(); err != nil {
					errs <- fmt.Errorf("writer %d, batch %d: %w", w, r, err)
					return
				}
				if err := db.Put(fmt.Appendf(nil, "w%d/last", w), fmt.Appendf(nil, "%d", r)); err != nil {
					errs <- fmt.Errorf("writer %d, put %d: %w", w, r, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var want []kv
	for w := range writers {
		for r := range rounds {
			for i := range perBatch {
				if i == 0 && r < rounds-1 {
					continue // deleted by the next batch
				}
				want = append(want, kv{fmt.Sprintf("w%d/%03d/%02d", w, r, i), fmt.Sprintf("%d.%d.%d", w, r, i)})
			}
		}
		want = append(want, kv{fmt.Sprintf("w%d/last", w), fmt.Sprint(rounds - 1)})
	}
	slices.SortFunc(want, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	wantScan(t, db, nil, nil, want)
	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, want)
}

// testMaintenanceWithReaders runs readers over a range that does not
// change while another goroutine fills a neighbouring range, deletes it
// with DeleteRange and compacts. The readers must see their range whole
// every time. Compact must succeed, or, on an engine whose Limits say
// ExclusiveCompact, fail with ErrOpenIterators while a reader's iterator
// is open.
func testMaintenanceWithReaders(t *testing.T, db engine.Engine) {
	const stable, churn, rounds, readers = 200, 100, 15, 2
	b := newBatch(t, db)
	var want []kv
	for i := range stable {
		k, v := fmt.Sprintf("s/%03d", i), fmt.Sprintf("v%03d", i)
		b.Put([]byte(k), []byte(v))
		want = append(want, kv{k, v})
	}
	commit(t, b)

	done := make(chan struct{})
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			for pass := 0; ; pass++ {
				if err := readStable(db, want); err != nil {
					t.Errorf("reader %d, pass %d: %v", r, pass, err)
					return
				}
				select {
				case <-done:
					return
				default:
				}
			}
		})
	}
	exclusive := engine.LimitsOf(db).ExclusiveCompact
	var failure error
	for round := range rounds {
		for i := range churn {
			b.Put(fmt.Appendf(nil, "d/%03d", i), fmt.Appendf(nil, "round %d", round))
		}
		if err := b.Commit(); err != nil {
			failure = fmt.Errorf("round %d: commit: %w", round, err)
			break
		}
		if err := db.DeleteRange([]byte("d/"), []byte("d0")); err != nil {
			failure = fmt.Errorf("round %d: DeleteRange: %w", round, err)
			break
		}
		if err := db.Compact(nil, nil); err != nil && !(exclusive && errors.Is(err, engine.ErrOpenIterators)) {
			failure = fmt.Errorf("round %d: Compact beside readers: %w", round, err)
			break
		}
	}
	close(done)
	wg.Wait()
	if failure != nil {
		t.Fatal(failure)
	}
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact once the readers stopped: %v", err)
	}
	wantScan(t, db, nil, nil, want)
}

// readStable checks that an iterator over "s/" and a Get of each key see
// exactly want.
func readStable(db engine.Engine, want []kv) error {
	it, err := db.NewIterator(engine.IterOptions{LowerBound: []byte("s/"), UpperBound: []byte("s0")})
	if err != nil {
		return err
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n >= len(want) || string(it.Key()) != want[n].k || string(it.Value()) != want[n].v {
			it.Close()
			return fmt.Errorf("entry %d is %q=%q, want %v", n, it.Key(), it.Value(), want[min(n, len(want)-1)])
		}
		n++
	}
	if err := it.Close(); err != nil {
		return err
	}
	if n != len(want) {
		return fmt.Errorf("iterator saw %d of the %d entries", n, len(want))
	}
	for _, e := range want[:10] {
		if v, err := db.Get([]byte(e.k)); err != nil || string(v) != e.v {
			return fmt.Errorf("Get(%q) = %q, %v; want %q", e.k, v, err, e.v)
		}
	}
	return nil
}
