package enginetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/tsbench/storage/engine"
)

// binaryKeys are keys whose bytewise order trips up signed-byte and
// string comparisons: 0x80 must sort after 0x7f, a key before its
// extensions, 0x00 first and 0xff runs last.
var binaryKeys = []string{
	"\x00", "\x00\x00", "\x00\x01", "\x01", "\x7f", "\x80", "\xfe\xff",
	"\xff", "\xff\x00", "\xff\xff", "\xff\xff\xff",
	"a", "a\x00", "a\x00\x00", "aa", "ab", "b",
}

func testOrdering(t *testing.T, db engine.Engine) {
	// Insert in a scrambled but fixed order.
	keys := slices.Clone(binaryKeys)
	for i := range keys {
		j := (i * 7) % len(keys)
		keys[i], keys[j] = keys[j], keys[i]
	}
	putAll(t, db, keys...)
	slices.SortFunc(keys, func(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) })
	var want []kv
	for _, k := range keys {
		want = append(want, kv{k, "v" + k})
	}
	wantScan(t, db, nil, nil, want)
	// An empty, non-nil lower bound is below every key.
	wantScan(t, db, []byte{}, nil, want)
}

func testGetMissing(t *testing.T, db engine.Engine) {
	wantMissing(t, db, "a")
	putAll(t, db, "b", "d")
	for _, k := range []string{"a", "c", "e", "b\x00", "d\xff", "\x00", "\xff"} {
		wantMissing(t, db, k)
	}
	wantGet(t, db, "b", "vb")
}

func testBounds(t *testing.T, db engine.Engine) {
	all := putAll(t, db, "\x00", "b", "d", "d\x00", "f", "\xff", "\xff\xff")
	cases := []struct {
		name         string
		lower, upper []byte
		want         []kv
	}{
		{"unbounded", nil, nil, all},
		{"lower inclusive", []byte("d"), nil, all[2:]},
		{"lower between keys", []byte("c"), nil, all[2:]},
		{"upper exclusive", nil, []byte("d"), all[:2]},
		{"upper between keys", nil, []byte("e"), all[:4]},
		{"both", []byte("b"), []byte("f"), all[1:4]},
		{"lower equals upper", []byte("d"), []byte("d"), nil},
		{"nothing inside", []byte("d\x01"), []byte("e"), nil},
		{"upper below everything", nil, []byte("\x00"), nil},
		{"lower above everything", []byte("\xff\xff\x00"), nil, nil},
		{"0xff prefix", []byte("\xff"), nil, all[5:]},
		{"upper 0xff", nil, []byte("\xff"), all[:5]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantScan(t, db, c.lower, c.upper, c.want)
		})
	}
}

func testSeek(t *testing.T, db engine.Engine) {
	putAll(t, db, "b", "d", "f")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	// Before, at, between and past the keys, and moves from there.
	wantMoves(t, it, "unbounded", "Seek(a)=b Seek()=b Seek(b)=b Seek(c)=d Seek(g)= Last=f Seek(c)=d Prev=b Prev= Seek(f\x00)= First=b")

	bounded := newIter(t, db, []byte("c"), []byte("f"))
	defer closeIter(t, bounded)
	wantMoves(t, bounded, "bounded [c, f)", "Seek(a)=d Prev= Seek(e)= Seek(f)= Last=d Next= First=d")
}

func testDirectionSwitch(t *testing.T, db engine.Engine) {
	putAll(t, db, "a", "b", "c", "d")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	wantMoves(t, it, "switching direction", "Seek(b)=b Next=c Prev=b Prev=a Next=b Next=c Last=d Prev=c Next=d Next= First=a Next=b Prev=a Prev=")
}

// testUnpositioned checks that an iterator that rests on no key, fresh or
// over an empty range, reports so instead of crashing.
func testUnpositioned(t *testing.T, db engine.Engine) {
	empty := newIter(t, db, nil, nil)
	wantMoves(t, empty, "empty engine", "First= Last= Seek(a)=")
	closeIter(t, empty)

	putAll(t, db, "a", "b")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	if it.Valid() {
		t.Fatalf("new iterator is Valid before positioning")
	}
	wantMoves(t, it, "new iterator", "Next= Prev=")
	it.Key() // must not crash
	it.Value()
	if err := it.Err(); err != nil {
		t.Fatalf("Err on a new iterator: %v", err)
	}
	wantMoves(t, it, "past the end", "Last=b Next= Next=")
	it.Key()
	it.Value()
	if err := it.Err(); err != nil {
		t.Fatalf("Err after running off the end: %v", err)
	}
}

func testIteratorSnapshot(t *testing.T, db engine.Engine) {
	before := putAll(t, db, "a", "b", "c", "d")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	wantAt(t, it, "First", it.First(), "a")
	put(t, db, "b", "changed")
	put(t, db, "bb", "new")
	del(t, db, "c")
	deleteRange(t, db, "d", "e")
	if seen := entries(it, false); !slices.Equal(seen, before) {
		t.Fatalf("iterator sees writes made after it was created:\n got  %v\n want %v", seen, before)
	}
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"b", "changed"}, {"bb", "new"}})
}

func testSliceOwnership(t *testing.T, db engine.Engine) {
	key, val := []byte("k1"), []byte("value1")
	if err := db.Put(key, val); err != nil {
		t.Fatal(err)
	}
	copy(key, "k2")
	copy(val, "XXXXXX") // the caller may reuse slices once Put returns
	wantGet(t, db, "k1", "value1")

	got, err := db.Get([]byte("k1"))
	if err != nil {
		t.Fatal(err)
	}
	copy(got, "YYYYYY") // Get's result belongs to the caller
	wantGet(t, db, "k1", "value1")

	b := newBatch(t, db)
	key, val = []byte("k3"), []byte("value3")
	b.Put(key, val)
	copy(key, "k4")
	copy(val, "ZZZZZZ") // batches copy too
	delKey := []byte("k1")
	b.Delete(delKey)
	copy(delKey, "k9")
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{"k3", "value3"}})

	// Key and Value must not share a buffer: both stay right until the
	// next move.
	putAll(t, db, "k5")
	want := []kv{{"k3", "value3"}, {"k5", "vk5"}}
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		v := it.Value()
		if n >= len(want) || string(k) != want[n].k || string(v) != want[n].v {
			t.Fatalf("entry %d: Key %q then Value %q, want %v", n, k, v, want)
		}
		n++
	}
	if n != len(want) {
		t.Fatalf("iterated %d entries, want %d", n, len(want))
	}
}

// hidden is an engine with nothing but the Engine methods, so that the
// functions of the optional interfaces take their fallback on it.
type hidden struct{ engine.Engine }

// hiddenIter is an iterator without SetBounds.
type hiddenIter struct{ engine.Iterator }

// testSnapshot checks the engine's snapshot, native or not.
func testSnapshot(t *testing.T, db engine.Engine) {
	if _, ok := db.(engine.Snapshotter); !ok {
		t.Fatalf("%T is not an engine.Snapshotter: open the engine with engine.Open", db)
	}
	checkSnapshot(t, db, db)
}

// testSnapshotFallback checks engine.NewSnapshot's fallback over the
// engine's iterators.
func testSnapshotFallback(t *testing.T, db engine.Engine) {
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
				if got, err := scanAll(s); err != nil || !slices.Equal(got, before) {
					t.Errorf("reader %d: snapshot scan = %v, %v; want %v", r, got, err, before)
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
	if err := s.Close(); err != nil {
		t.Errorf("second snapshot Close = %v, want nil (io.Closer's convention)", err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("engine Close after the snapshot's: %v", err)
	}
}

// testSetBounds checks iterator reuse through the iterators' own
// SetBounds, which every iterator of an engine from Open has.
func testSetBounds(t *testing.T, db engine.Engine) {
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
func testSetBoundsFallback(t *testing.T, db engine.Engine) {
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
	wantMoves(t, it, "in [a, c)", "First=a Next=b")
	it = reuse(db, it, "c", "e")
	wantMoves(t, it, "in [c, e)", "First=c Next=d Next=")
	it = reuse(db, it, "", "b")
	wantMoves(t, it, "in [nil, b)", "Last=a Prev=")
	it = reuse(db, it, "e", "")
	wantMoves(t, it, "in [e, nil)", "Seek(a)=e Last=f")
	// One iterator per series, as a time-series query reads them.
	for i := range 200 {
		lo := string(rune('a' + i%6))
		it = reuse(db, it, lo, lo+"\x00")
		wantMoves(t, it, fmt.Sprintf("in [%s, %s\\x00)", lo, lo), "First="+lo+" Next=")
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
	wantMoves(t, it, "in [c, e) of a snapshot taken before the writes", "First=c Next=d")
	closeIter(t, it)
	if err := s.Close(); err != nil {
		t.Fatalf("snapshot Close: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("Close after reusing iterators: %v", err)
	}
}

// testAppendEntries checks engine.AppendEntries, the iterator's own
// (EntryAppender) where it has one: runs of every length read the same
// entries as Next, Key and Value, across the refills of a bulk cursor
// (entries of about 100 bytes, many times its 32 KiB buffer), from First,
// after a Seek, and after a turn with Prev, and the iterator moves again
// once positioned anew.
func testAppendEntries(t *testing.T, db engine.Engine) {
	const n = 3000
	key := func(i int) string { return fmt.Sprintf("append/%05d", i) }
	b := newBatch(t, db)
	for i := range n {
		b.Put([]byte(key(i)), randomBytes(uint64(i), 40+i%90))
	}
	commit(t, b)
	want := scan(t, db, []byte("append/"), []byte("append0"), false)
	if len(want) != n {
		t.Fatalf("scan found %d entries, want %d", len(want), n)
	}
	// appendAll appends runs of at most max, the first with first set,
	// until none may follow.
	appendAll := func(it engine.Iterator, max int, first bool) []kv {
		t.Helper()
		var got []kv
		var buf []byte
		for more := true; more; first = false {
			var m int
			buf, m, more = engine.AppendEntries(it, buf[:0], max, first)
			if m > max || (more && m < 1) {
				t.Fatalf("AppendEntries(max %d) appended %d entries, more %v", max, m, more)
			}
			for ; len(buf) > 0; m-- {
				var k, v []byte
				k, v, buf = engine.NextEntry(buf)
				got = append(got, kv{string(k), string(v)})
			}
			if m != 0 {
				t.Fatalf("AppendEntries(max %d) said it appended %d more entries than it did", max, m)
			}
		}
		if err := it.Err(); err != nil {
			t.Fatalf("AppendEntries(max %d): %v", max, err)
		}
		return got
	}
	for _, max := range []int{1, 7, 1000, n + 1} {
		it := newIter(t, db, []byte("append/"), []byte("append0"))
		if got := appendAll(it, max, true); !slices.Equal(got, want) {
			t.Errorf("AppendEntries(max %d) from First read %d entries, want the %d of a scan (first difference at %d)", max, len(got), n, firstDiff(got, want))
		}
		if !it.Seek([]byte(key(1234))) {
			t.Fatalf("Seek(%s) found nothing", key(1234))
		}
		if got := appendAll(it, max, false); !slices.Equal(got, want[1234:]) {
			t.Errorf("AppendEntries(max %d) after a Seek read %d entries, want %d", max, len(got), n-1234)
		}
		it.Seek([]byte(key(2000)))
		it.Prev() // a turn: the iterator last filled backward
		if got := appendAll(it, max, false); !slices.Equal(got, want[1999:]) {
			t.Errorf("AppendEntries(max %d) after a Prev read %d entries, want %d", max, len(got), n-1999)
		}
		if !it.Seek([]byte(key(7))) || string(it.Key()) != key(7) || !it.Next() || string(it.Key()) != key(8) {
			t.Errorf("Seek(%s) and Next after AppendEntries: at %q, %v", key(7), it.Key(), it.Err())
		}
		closeIter(t, it)
	}
}

// firstDiff is the index of the first entry where got and want differ.
func firstDiff(got, want []kv) int {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return i
		}
	}
	return min(len(got), len(want))
}
