package enginetest

import (
	"bytes"
	"slices"
	"testing"
)

// binaryKeys are keys whose bytewise order trips up signed-byte and
// string comparisons: 0x80 must sort after 0x7f, a key before its
// extensions, 0x00 first and 0xff runs last.
var binaryKeys = []string{
	"\x00", "\x00\x00", "\x00\x01", "\x01", "\x7f", "\x80", "\xfe\xff",
	"\xff", "\xff\x00", "\xff\xff", "\xff\xff\xff",
	"a", "a\x00", "a\x00\x00", "aa", "ab", "b",
}

func testOrdering(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
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

func testGetMissing(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	wantMissing(t, db, "a")
	putAll(t, db, "b", "d")
	for _, k := range []string{"a", "c", "e", "b\x00", "d\xff", "\x00", "\xff"} {
		wantMissing(t, db, k)
	}
	wantGet(t, db, "b", "vb")
}

func testBounds(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
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

func testSeek(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "b", "d", "f")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	wantAt(t, it, "Seek(a) before the start", it.Seek([]byte("a")), "b")
	wantAt(t, it, "Seek(empty)", it.Seek([]byte{}), "b")
	wantAt(t, it, "Seek(b) exact", it.Seek([]byte("b")), "b")
	wantAt(t, it, "Seek(c) between", it.Seek([]byte("c")), "d")
	wantAt(t, it, "Seek(g) past the end", it.Seek([]byte("g")), "")
	wantAt(t, it, "Last after exhausted Seek", it.Last(), "f")
	wantAt(t, it, "Seek(c)", it.Seek([]byte("c")), "d")
	wantAt(t, it, "Prev after Seek(c)", it.Prev(), "b")
	wantAt(t, it, "Prev before the start", it.Prev(), "")
	wantAt(t, it, "Seek(f\\x00) after the last key", it.Seek([]byte("f\x00")), "")
	wantAt(t, it, "First after exhausted Prev", it.First(), "b")

	bounded := newIter(t, db, []byte("c"), []byte("f"))
	defer closeIter(t, bounded)
	wantAt(t, bounded, "bounded [c,f) Seek(a) below lower", bounded.Seek([]byte("a")), "d")
	wantAt(t, bounded, "bounded [c,f) Prev below lower", bounded.Prev(), "")
	wantAt(t, bounded, "bounded [c,f) Seek(e)", bounded.Seek([]byte("e")), "")
	wantAt(t, bounded, "bounded [c,f) Seek(f) at upper", bounded.Seek([]byte("f")), "")
	wantAt(t, bounded, "bounded [c,f) Last", bounded.Last(), "d")
	wantAt(t, bounded, "bounded [c,f) Next past upper", bounded.Next(), "")
	wantAt(t, bounded, "bounded [c,f) First", bounded.First(), "d")
}

func testDirectionSwitch(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "a", "b", "c", "d")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	wantAt(t, it, "Seek(b)", it.Seek([]byte("b")), "b")
	wantAt(t, it, "Next", it.Next(), "c")
	wantAt(t, it, "Prev after Next", it.Prev(), "b")
	wantAt(t, it, "Prev", it.Prev(), "a")
	wantAt(t, it, "Next after Prev", it.Next(), "b")
	wantAt(t, it, "Next", it.Next(), "c")
	wantAt(t, it, "Last", it.Last(), "d")
	wantAt(t, it, "Prev after Last", it.Prev(), "c")
	wantAt(t, it, "Next after Prev", it.Next(), "d")
	wantAt(t, it, "Next past the end", it.Next(), "")
	wantAt(t, it, "First", it.First(), "a")
	wantAt(t, it, "Next after First", it.Next(), "b")
	wantAt(t, it, "Prev back to First", it.Prev(), "a")
	wantAt(t, it, "Prev before the start", it.Prev(), "")
}

// testUnpositioned checks that an iterator that rests on no key, fresh or
// over an empty range, reports so instead of crashing.
func testUnpositioned(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	empty := newIter(t, db, nil, nil)
	wantAt(t, empty, "empty engine: First", empty.First(), "")
	wantAt(t, empty, "empty engine: Last", empty.Last(), "")
	wantAt(t, empty, "empty engine: Seek", empty.Seek([]byte("a")), "")
	closeIter(t, empty)

	putAll(t, db, "a", "b")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	if it.Valid() {
		t.Fatalf("new iterator is Valid before positioning")
	}
	wantAt(t, it, "Next on a new iterator", it.Next(), "")
	wantAt(t, it, "Prev on a new iterator", it.Prev(), "")
	it.Key() // must not crash
	it.Value()
	if err := it.Err(); err != nil {
		t.Fatalf("Err on a new iterator: %v", err)
	}
	wantAt(t, it, "Last", it.Last(), "b")
	wantAt(t, it, "Next past the end", it.Next(), "")
	wantAt(t, it, "Next again past the end", it.Next(), "")
	it.Key()
	it.Value()
	if err := it.Err(); err != nil {
		t.Fatalf("Err after running off the end: %v", err)
	}
}
