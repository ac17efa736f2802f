package enginetest

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
)

func testEmptyValue(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	put(t, db, "a", "")
	put(t, db, "b", "x")
	wantGet(t, db, "a", "")
	wantScan(t, db, nil, nil, []kv{{"a", ""}, {"b", "x"}})
	b := db.NewBatch()
	defer b.Close()
	b.Put([]byte("b"), nil)
	commit(t, b)
	wantGet(t, db, "b", "")
	wantScan(t, db, nil, nil, []kv{{"a", ""}, {"b", ""}})
}

// randomBytes returns n incompressible bytes, the same for the same seed.
func randomBytes(seed uint64, n int) []byte {
	b := make([]byte, n)
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	rand.NewChaCha8(s).Read(b)
	return b
}

func testLargeValue(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	big := string(randomBytes(1, 1<<20))
	put(t, db, "a", "small")
	put(t, db, "big", big)
	put(t, db, "c", "small")
	wantGet(t, db, "big", big)
	b := db.NewBatch()
	defer b.Close()
	big2 := string(randomBytes(2, 1<<20))
	b.Put([]byte("big2"), []byte(big2))
	b.Put([]byte("big3"), []byte(big))
	commit(t, b)
	want := []kv{{"a", "small"}, {"big", big}, {"big2", big2}, {"big3", big}, {"c", "small"}}
	wantScan(t, db, nil, nil, want)
	put(t, db, "big", "shrunk")
	wantGet(t, db, "big", "shrunk")
	want[1].v = "shrunk"
	wantScan(t, db, nil, nil, want)
}

func testOverwrite(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "a", "b", "c")
	put(t, db, "b", "second, longer value")
	wantGet(t, db, "b", "second, longer value")
	put(t, db, "b", "3")
	wantGet(t, db, "b", "3")
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"b", "3"}, {"c", "vc"}})
}

func testDelete(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "a", "b", "c")
	del(t, db, "b")
	wantMissing(t, db, "b")
	del(t, db, "b")             // deleting again is not an error
	del(t, db, "never written") // nor is deleting an absent key
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"c", "vc"}})
	put(t, db, "b", "again")
	wantGet(t, db, "b", "again")
}

func testDeleteRange(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	all := putAll(t, db, "a", "b", "b\x00", "c", "d", "e", "\xff")

	deleteRange(t, db, "c", "c")         // empty range
	deleteRange(t, db, "d", "b")         // start after end
	deleteRange(t, db, "c\x00", "c\xff") // covers no key
	wantScan(t, db, nil, nil, all)

	deleteRange(t, db, "b", "c") // start inclusive, end exclusive
	wantMissing(t, db, "b")
	wantMissing(t, db, "b\x00")
	wantGet(t, db, "a", "va")
	wantGet(t, db, "c", "vc")
	wantScan(t, db, nil, nil, []kv{all[0], all[3], all[4], all[5], all[6]})

	deleteRange(t, db, "c\x00", "e\x00") // bounds that are not keys
	wantScan(t, db, nil, nil, []kv{all[0], all[3], all[6]})

	deleteRange(t, db, "\x00", "\xff\xff") // everything, 0xff included
	wantScan(t, db, nil, nil, nil)
	put(t, db, "b", "back")
	wantGet(t, db, "b", "back")
}

func testBatch(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "x", "y")
	b := db.NewBatch()
	defer b.Close()
	b.Put([]byte("a"), []byte("1"))
	b.Put([]byte("b"), []byte("2"))
	b.Delete([]byte("x"))
	b.Put([]byte("y"), []byte("new"))
	b.Put([]byte("z"), []byte("gone"))
	b.Delete([]byte("z")) // later operations in a batch win
	if n := b.Len(); n != 6 {
		t.Fatalf("Len = %d, want 6", n)
	}
	before := []kv{{"x", "vx"}, {"y", "vy"}}
	wantScan(t, db, nil, nil, before) // nothing visible before Commit
	wantMissing(t, db, "a")

	reader := newIter(t, db, nil, nil)
	defer closeIter(t, reader)
	commit(t, b)
	if n := b.Len(); n != 0 {
		t.Fatalf("Len after Commit = %d, want 0", n)
	}
	wantScan(t, db, nil, nil, []kv{{"a", "1"}, {"b", "2"}, {"y", "new"}})
	wantMissing(t, db, "z")

	var seen []kv
	for ok := reader.First(); ok; ok = reader.Next() {
		seen = append(seen, kv{string(reader.Key()), string(reader.Value())})
	}
	if !slices.Equal(seen, before) {
		t.Fatalf("iterator opened before Commit sees %v, want %v", seen, before)
	}
}

func testBatchReuse(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	b := db.NewBatch()
	defer b.Close()
	b.Put([]byte("a"), []byte("1"))
	commit(t, b)
	put(t, db, "a", "changed")
	b.Put([]byte("b"), []byte("2"))
	if n := b.Len(); n != 1 {
		t.Fatalf("Len of reused batch = %d, want 1", n)
	}
	commit(t, b)
	// The first commit's put must not be applied again.
	wantScan(t, db, nil, nil, []kv{{"a", "changed"}, {"b", "2"}})
	commit(t, b) // an empty commit is fine
	wantScan(t, db, nil, nil, []kv{{"a", "changed"}, {"b", "2"}})
}

func testBatchClose(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	b := db.NewBatch()
	b.Put([]byte("a"), []byte("1"))
	b.Delete([]byte("b"))
	if err := b.Close(); err != nil {
		t.Fatalf("Batch.Close: %v", err)
	}
	wantMissing(t, db, "a")
	b.Put([]byte("c"), []byte("3")) // must not crash
	if err := b.Commit(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("Commit after Batch.Close = %v, want an error wrapping engine.ErrClosed", err)
	}
	if err := b.Close(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("second Batch.Close = %v, want an error wrapping engine.ErrClosed", err)
	}
	wantScan(t, db, nil, nil, nil)
}

func testIteratorSnapshot(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	before := putAll(t, db, "a", "b", "c", "d")
	it := newIter(t, db, nil, nil)
	defer closeIter(t, it)
	wantAt(t, it, "First", it.First(), "a")
	put(t, db, "b", "changed")
	put(t, db, "bb", "new")
	del(t, db, "c")
	deleteRange(t, db, "d", "e")
	var seen []kv
	for ok := it.First(); ok; ok = it.Next() {
		seen = append(seen, kv{string(it.Key()), string(it.Value())})
	}
	if !slices.Equal(seen, before) {
		t.Fatalf("iterator sees writes made after it was created:\n got  %v\n want %v", seen, before)
	}
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"b", "changed"}, {"bb", "new"}})
}

func testSliceOwnership(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
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

	b := db.NewBatch()
	defer b.Close()
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
