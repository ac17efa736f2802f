package enginetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/tsbench/storage/engine"
)

// hidden is an engine with nothing but the Engine methods, so that the
// functions of the optional interfaces take their fallback on it.
type hidden struct{ engine.Engine }

// hiddenIter is an iterator without SetBounds.
type hiddenIter struct{ engine.Iterator }

// testSnapshot checks the engine's snapshot, native or not.
func testSnapshot(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	if _, ok := db.(engine.Snapshotter); !ok {
		t.Fatalf("%T is not an engine.Snapshotter: open the engine with engine.Open", db)
	}
	checkSnapshot(t, db, db)
}

// testSnapshotFallback checks engine.NewSnapshot's fallback over the
// engine's iterators.
func testSnapshotFallback(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	checkSnapshot(t, db, hidden{db})
}

// checkSnapshot takes a snapshot of e (db or db hidden), writes through
// db, and requires the snapshot's Gets and iterators, interleaved and
// concurrent, to show the state from before, and Close to keep its rules.
func checkSnapshot(t *testing.T, db, e engine.Engine) {
	before := putAll(t, db, "a", "b", "c", "d", "e")
	s, err := engine.NewSnapshot(e)
	if err != nil {
		t.Fatalf("NewSnapshot: %v", err)
	}
	put(t, db, "b", "changed")
	put(t, db, "bb", "new")
	del(t, db, "c")
	deleteRange(t, db, "d", "e")
	put(t, db, "f", "new")
	after := []kv{{"a", "va"}, {"b", "changed"}, {"bb", "new"}, {"e", "ve"}, {"f", "new"}}
	wantScan(t, db, nil, nil, after)

	for _, e := range before {
		wantGet(t, s, e.k, e.v)
	}
	wantMissing(t, s, "bb")
	wantMissing(t, s, "f")
	wantScan(t, s, nil, nil, before)
	wantScan(t, s, []byte("b"), []byte("e"), before[1:4])

	// Two iterators of the snapshot, moved in turns, with Gets between.
	fwd := newIter(t, s, nil, nil)
	rev := newIter(t, s, []byte("b"), []byte("e"))
	var gotFwd, gotRev []kv
	okF, okR := fwd.First(), rev.Last()
	for okF || okR {
		if okF {
			gotFwd = append(gotFwd, kv{string(fwd.Key()), string(fwd.Value())})
			okF = fwd.Next()
		}
		wantGet(t, s, "a", "va")
		if okR {
			gotRev = append(gotRev, kv{string(rev.Key()), string(rev.Value())})
			okR = rev.Prev()
		}
	}
	slices.Reverse(gotRev)
	if !slices.Equal(gotFwd, before) || !slices.Equal(gotRev, before[1:4]) {
		t.Fatalf("interleaved iterators of one snapshot:\n forward %v\n reverse %v\n want %v and %v", gotFwd, gotRev, before, before[1:4])
	}
	if err := fwd.Err(); err != nil {
		t.Fatalf("snapshot iterator: %v", err)
	}
	// Reuse keeps the snapshot's view.
	fwd, err = engine.SetBounds(s, fwd, engine.IterOptions{LowerBound: []byte("c")})
	if err != nil {
		t.Fatalf("SetBounds on a snapshot iterator: %v", err)
	}
	wantAt(t, fwd, "First after SetBounds([c, nil)) on a snapshot iterator", fwd.First(), "c")

	// Readers in parallel with a writer, under -race.
	var wg sync.WaitGroup
	for r := range 3 {
		wg.Go(func() {
			for range 20 {
				if got := scanQuiet(s); !slices.Equal(got, before) {
					t.Errorf("reader %d: snapshot scan = %v, want %v", r, got, before)
					return
				}
			}
		})
	}
	for i := range 50 {
		put(t, db, fmt.Sprintf("w%02d", i), "new")
	}
	wg.Wait()

	if err := db.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("engine Close with a snapshot open = %v, want engine.ErrOpenIterators", err)
	}
	if err := s.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("snapshot Close with its iterators open = %v, want engine.ErrOpenIterators", err)
	}
	wantGet(t, s, "b", "vb") // still open
	closeIter(t, fwd)
	closeIter(t, rev)
	if err := s.Close(); err != nil {
		t.Fatalf("snapshot Close: %v", err)
	}
	if _, err := s.Get([]byte("a")); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("Get on a closed snapshot = %v, want engine.ErrClosed", err)
	}
	if _, err := s.NewIterator(engine.IterOptions{}); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("NewIterator on a closed snapshot = %v, want engine.ErrClosed", err)
	}
	if err := s.Close(); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("second snapshot Close = %v, want engine.ErrClosed", err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("engine Close after the snapshot's: %v", err)
	}
}

// scanQuiet is scan for other goroutines: an error becomes an entry that
// fails the comparison.
func scanQuiet(r engine.Reader) []kv {
	it, err := r.NewIterator(engine.IterOptions{})
	if err != nil {
		return []kv{{"NewIterator error", err.Error()}}
	}
	var got []kv
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, kv{string(it.Key()), string(it.Value())})
	}
	if err := it.Close(); err != nil {
		got = append(got, kv{"Close error", err.Error()})
	}
	return got
}
