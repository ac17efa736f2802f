package enginetest

import (
	"errors"
	"fmt"
	"runtime"
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
func testConcurrentReaders(t *testing.T, open Factory, dir string) {
	const (
		pairs   = 8
		readers = 3
		rounds  = 300
		// The writer waits for the readers to make a pass every other
		// round, up to maxTime, so that reads overlap writes however the
		// scheduler runs them.
		maxTime = 5 * time.Second
	)
	db := mustOpen(t, open, dir)
	done := make(chan struct{})
	var passes atomic.Int64
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(done)
	for r := range readers {
		wg.Go(func() {
			seen := map[string]string{} // newest round seen per key
			for pass := 0; ; pass++ {
				if !readPairs(t, db, pairs, seen, fmt.Sprintf("reader %d pass %d", r, pass)) {
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
	b := db.NewBatch()
	defer b.Close()
	start := time.Now()
	for round := 1; round <= rounds; round++ {
		for passes.Load() < int64(round/2) && time.Since(start) < maxTime {
			runtime.Gosched()
		}
		k := round % pairs
		a, bk := fmt.Appendf(nil, "a/%d", k), fmt.Appendf(nil, "b/%d", k)
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

// readPairs checks one snapshot and one round of Gets; it reports false
// after a failure.
func readPairs(t *testing.T, db engine.Engine, pairs int, seen map[string]string, who string) bool {
	newer := func(k, v string) bool {
		if v < seen[k] {
			t.Errorf("%s: %s went back from round %s to %s", who, k, seen[k], v)
			return false
		}
		seen[k] = v
		return true
	}
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		t.Errorf("%s: NewIterator: %v", who, err)
		return false
	}
	snap := map[string]string{}
	for ok := it.First(); ok; ok = it.Next() {
		snap[string(it.Key())] = string(it.Value())
	}
	if err := it.Close(); err != nil {
		t.Errorf("%s: iterator: %v", who, err)
		return false
	}
	for k := range pairs {
		a, b := fmt.Sprintf("a/%d", k), fmt.Sprintf("b/%d", k)
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
		key := fmt.Sprintf("a/%d", k)
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
