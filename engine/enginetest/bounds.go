package enginetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
)

// testSetBounds checks iterator reuse through the iterators' own
// SetBounds, which every iterator of an engine from Open has.
func testSetBounds(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	it := newIter(t, db, nil, nil)
	bs, ok := it.(engine.BoundsSetter)
	closeIter(t, it)
	if !ok {
		t.Fatalf("iterator %T is not an engine.BoundsSetter: open the engine with engine.Open", it)
	}
	if err := bs.SetBounds(engine.IterOptions{}); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("SetBounds on a closed iterator = %v, want engine.ErrClosed", err)
	}
	checkSetBounds(t, db, func(it engine.Iterator) engine.Iterator { return it })
}

// testSetBoundsFallback checks engine.SetBounds on iterators without
// SetBounds: it closes them and opens new ones.
func testSetBoundsFallback(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	checkSetBounds(t, db, func(it engine.Iterator) engine.Iterator { return hiddenIter{it} })
}

// checkSetBounds reuses iterators, of db and of a snapshot, across many
// bounds; as wraps each before reuse. A leaked or double-counted iterator
// shows when db closes.
func checkSetBounds(t *testing.T, db engine.Engine, as func(engine.Iterator) engine.Iterator) {
	putAll(t, db, "a", "b", "c", "d", "e", "f")
	reuse := func(r engine.Reader, it engine.Iterator, lower, upper string) engine.Iterator {
		t.Helper()
		opts := engine.IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)}
		if upper == "" {
			opts.UpperBound = nil
		}
		it, err := engine.SetBounds(r, as(it), opts)
		if err != nil {
			t.Fatalf("SetBounds([%q, %q)): %v", lower, upper, err)
		}
		// The caller may reuse the bounds' slices at once.
		copy(opts.LowerBound, "zzzz")
		copy(opts.UpperBound, "\x00\x00\x00\x00")
		if it.Valid() {
			t.Fatalf("SetBounds([%q, %q)) left the iterator on %q, want it unpositioned", lower, upper, it.Key())
		}
		return it
	}
	it := newIter(t, db, []byte("a"), []byte("c"))
	wantAt(t, it, "First in [a, c)", it.First(), "a")
	wantAt(t, it, "Next in [a, c)", it.Next(), "b")
	it = reuse(db, it, "c", "e")
	wantAt(t, it, "First in [c, e)", it.First(), "c")
	wantAt(t, it, "Next in [c, e)", it.Next(), "d")
	wantAt(t, it, "Next past e", it.Next(), "")
	it = reuse(db, it, "", "b")
	wantAt(t, it, "Last in [nil, b)", it.Last(), "a")
	wantAt(t, it, "Prev before a", it.Prev(), "")
	it = reuse(db, it, "e", "")
	wantAt(t, it, "Seek(a) in [e, nil)", it.Seek([]byte("a")), "e")
	wantAt(t, it, "Last in [e, nil)", it.Last(), "f")
	// One iterator per series, as a time-series query reads them.
	for i := range 200 {
		lo := string(rune('a' + i%6))
		it = reuse(db, it, lo, lo+"\x00")
		wantAt(t, it, fmt.Sprintf("First in [%s, %s\\x00)", lo, lo), it.First(), lo)
		wantAt(t, it, "Next past a one-key range", it.Next(), "")
	}
	closeIter(t, it)

	s, err := engine.NewSnapshot(db)
	if err != nil {
		t.Fatalf("NewSnapshot: %v", err)
	}
	it = newIter(t, s, []byte("a"), []byte("b"))
	put(t, db, "c2", "new")
	del(t, db, "d")
	it = reuse(s, it, "c", "e")
	wantAt(t, it, "First in [c, e) of a snapshot taken before the writes", it.First(), "c")
	wantAt(t, it, "Next in [c, e) of the snapshot", it.Next(), "d")
	closeIter(t, it)
	if err := s.Close(); err != nil {
		t.Fatalf("snapshot Close: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("Close after reusing iterators: %v", err)
	}
}
