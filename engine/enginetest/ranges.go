package enginetest

import (
	"errors"
	"testing"

	"github.com/tsbench/storage/engine"
)

// wantInvalidRange requires err, the result of call, to wrap
// engine.ErrInvalidRange.
func wantInvalidRange(t *testing.T, call string, err error) {
	t.Helper()
	if !errors.Is(err, engine.ErrInvalidRange) {
		t.Fatalf("%s = %v, want an error wrapping engine.ErrInvalidRange", call, err)
	}
}

// testInvalidRange checks that a range written backwards is refused with
// engine.ErrInvalidRange by DeleteRange, Compact, EstimateSize,
// NewIterator (of the engine and of its snapshots, native and fallback)
// and SetBounds,
// changing nothing and leaving no iterator open, while an empty range
// (start equal to end) does nothing and a nil end is unbounded.
func testInvalidRange(t *testing.T, db engine.Engine) {
	all := putAll(t, db, "a", "b", "c", "d")
	inverted := engine.IterOptions{LowerBound: []byte("d"), UpperBound: []byte("b")}
	wantInvalidRange(t, `DeleteRange("d", "b")`, db.DeleteRange([]byte("d"), []byte("b")))
	wantInvalidRange(t, `DeleteRange("b", "")`, db.DeleteRange([]byte("b"), []byte{}))
	wantInvalidRange(t, `Compact("d", "b")`, db.Compact([]byte("d"), []byte("b")))
	_, err := db.NewIterator(inverted)
	wantInvalidRange(t, `NewIterator(["d", "b"))`, err)
	_, err = engine.EstimateSize(db, []byte("d"), []byte("b"))
	wantInvalidRange(t, `EstimateSize("d", "b")`, err)
	wantScan(t, db, nil, nil, all)

	deleteRange(t, db, "b", "b")
	if err := db.Compact([]byte("b"), []byte("b")); err != nil {
		t.Fatalf(`Compact("b", "b"), an empty range = %v, want nil`, err)
	}
	wantScan(t, db, []byte("b"), []byte("b"), nil)
	wantScan(t, db, []byte("c"), nil, all[2:])
	wantScan(t, db, nil, nil, all)

	for _, e := range []engine.Engine{db, hidden{db}} {
		s, err := engine.NewSnapshot(e)
		if err != nil {
			t.Fatalf("NewSnapshot of %T: %v", e, err)
		}
		_, err = s.NewIterator(inverted)
		wantInvalidRange(t, `Snapshot.NewIterator(["d", "b"))`, err)
		for _, r := range []engine.Reader{db, s} {
			it := newIter(t, r, []byte("b"), []byte("d"))
			if bs, ok := it.(engine.BoundsSetter); ok {
				wantInvalidRange(t, "SetBounds of inverted bounds", bs.SetBounds(inverted))
				wantMoves(t, it, "after a refused SetBounds", "First=b Next=c Next=")
			}
			same, err := engine.SetBounds(r, it, inverted)
			wantInvalidRange(t, "engine.SetBounds of inverted bounds", err)
			if same != it {
				t.Fatalf("engine.SetBounds of inverted bounds returned another iterator, want the one it was given")
			}
			wantMoves(t, it, "after a refused engine.SetBounds", "Last=c Prev=b Prev=")
			closeIter(t, it)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Snapshot.Close after a refused NewIterator = %v, want nil: a refused iterator is not open", err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatalf("Close after refused NewIterator calls = %v, want nil: a refused iterator is not open", err)
	}
}

// testCloseTwice checks io.Closer's convention: a second Close of an
// iterator, a batch, a snapshot (native and fallback) and the engine
// returns nil, and does not uncount anything else that is open.
func testCloseTwice(t *testing.T, db engine.Engine) {
	putAll(t, db, "a")
	twice := func(what string, close func() error) {
		t.Helper()
		if err := close(); err != nil {
			t.Fatalf("%s.Close: %v", what, err)
		}
		if err := close(); err != nil {
			t.Fatalf("second %s.Close = %v, want nil (io.Closer's convention: a deferred Close may follow an explicit one)", what, err)
		}
	}
	it := newIter(t, db, nil, nil)
	twice("Iterator", it.Close)
	b := db.NewBatch()
	b.Put([]byte("b"), []byte("vb"))
	twice("Batch", b.Close)
	for _, e := range []engine.Engine{db, hidden{db}} {
		s, err := engine.NewSnapshot(e)
		if err != nil {
			t.Fatalf("NewSnapshot of %T: %v", e, err)
		}
		sit := newIter(t, s, nil, nil)
		twice("snapshot's Iterator", sit.Close)
		twice("Snapshot", s.Close)
		if _, err := s.Get([]byte("a")); !errors.Is(err, engine.ErrClosed) {
			t.Fatalf("Snapshot.Get after Close = %v, want an error wrapping engine.ErrClosed", err)
		}
	}
	wantScan(t, db, nil, nil, []kv{{"a", "va"}})
	other := newIter(t, db, nil, nil)
	if err := db.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("Close with one iterator open, after closing others twice = %v, want an error wrapping engine.ErrOpenIterators", err)
	}
	closeIter(t, other)
	twice("Engine", db.Close)
	if _, err := db.Get([]byte("a")); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("Get after Close = %v, want an error wrapping engine.ErrClosed", err)
	}
}
