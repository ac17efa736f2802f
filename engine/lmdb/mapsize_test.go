package lmdb

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
)

// TestMapGrows starts from a 64 KiB map and writes far more than that, in
// batches, single puts and one batch larger than the whole map: no write
// may fail with MDB_MAP_FULL, and nothing may be lost. It then deletes a
// range spanning several DeleteRange transactions.
func TestMapGrows(t *testing.T) {
	const start = 64 << 10
	dir := t.TempDir()
	db := openWithMap(t, dir, start)
	key := func(i int) []byte { return fmt.Appendf(nil, "key-%08d", i) }

	const n = deleteChunk + 5000
	b := db.NewBatch()
	defer b.Close()
	for i := range n / 2 {
		b.Put(key(i), key(i))
		if (i+1)%1000 == 0 {
			if err := b.Commit(); err != nil {
				t.Fatalf("Commit at %d: %v", i, err)
			}
		}
	}
	for i := n / 2; i < n/2+500; i++ {
		if err := db.Put(key(i), key(i)); err != nil {
			t.Fatalf("Put %d: %v", i, err)
		}
	}
	// One transaction larger than the whole starting map.
	for i := n/2 + 500; i < n; i++ {
		b.Put(key(i), key(i))
	}
	if err := b.Commit(); err != nil {
		t.Fatalf("Commit of %d entries: %v", n/2-500, err)
	}
	if db.mapSize <= start {
		t.Fatalf("map is %d bytes after writing %d entries, want it grown past %d", db.mapSize, n, start)
	}
	t.Logf("map grew from %d to %d bytes", start, db.mapSize)
	wantKeys(t, db, n, key, 0, n-1)

	// Reopening keeps a map large enough for the file.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openWithMap(t, dir, start)
	wantKeys(t, db, n, key, 0, n-1)

	if err := db.DeleteRange(key(1000), key(n-1000)); err != nil {
		t.Fatal(err)
	}
	wantKeys(t, db, 2000, key, 999, n-1000)
	for _, i := range []int{1000, n / 2, n - 1001} {
		if _, err := db.Get(key(i)); !errors.Is(err, engine.ErrNotFound) {
			t.Fatalf("Get of deleted entry %d: %v, want ErrNotFound", i, err)
		}
	}
}

// TestMapGrowsUnderOpenIterator checks that a write needing a larger map
// completes while the same goroutine holds an iterator, and that the
// iterator, whose cursor the remap invalidates, reads on through its
// snapshot in both directions.
func TestMapGrowsUnderOpenIterator(t *testing.T) {
	const start = 64 << 10
	db := openWithMap(t, t.TempDir(), start)
	key := func(i int) []byte { return fmt.Appendf(nil, "a%06d", i) }
	const n = 1000
	b := db.NewBatch()
	defer b.Close()
	for i := range n {
		b.Put(key(i), key(i))
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	it := enginetest.NewIterator(t, db, engine.IterOptions{})
	defer it.Close()
	if !it.Seek(key(n/2)) || !bytes.Equal(it.Key(), key(n/2)) {
		t.Fatalf("Seek(%s) rests on %q", key(n/2), it.Key())
	}
	// grow writes count entries under prefix, which needs a larger map.
	grow := func(prefix string, count int) {
		t.Helper()
		gen := db.mapGen
		for i := range count {
			b.Put(fmt.Appendf(nil, "%s%06d", prefix, i), bytes.Repeat([]byte{'x'}, 40))
		}
		if err := b.Commit(); err != nil {
			t.Fatalf("Commit needing a larger map with an iterator open: %v", err)
		}
		if db.mapGen == gen {
			t.Fatalf("map still %d bytes after %d more entries, want it grown", db.mapSize, count)
		}
	}
	grow("b", 5000)
	for i := n / 2; i < n; i++ {
		if !it.Valid() || !bytes.Equal(it.Key(), key(i)) || !bytes.Equal(it.Value(), key(i)) {
			t.Fatalf("after the remap, forward: at %q=%q, want %s (Err %v)", it.Key(), it.Value(), key(i), it.Err())
		}
		it.Next()
	}
	if it.Valid() || it.Err() != nil {
		t.Fatalf("iterator sees %q beyond its snapshot (Err %v)", it.Key(), it.Err())
	}
	// Remap again while resting on a key, then walk backward.
	if !it.Seek(key(n / 2)) {
		t.Fatal("Seek after the remap failed")
	}
	grow("c", 20000)
	for i := n / 2; i >= 0; i-- {
		if !it.Valid() || !bytes.Equal(it.Key(), key(i)) {
			t.Fatalf("after the second remap, backward: at %q, want %s (Err %v)", it.Key(), key(i), it.Err())
		}
		it.Prev()
	}
	if it.Valid() || it.Err() != nil {
		t.Fatalf("Prev past the first key rests on %q (Err %v)", it.Key(), it.Err())
	}
	// Remap while a backward fill has entries left to give, then walk on.
	if !it.Last() {
		t.Fatal("Last after the remaps failed")
	}
	grow("d", 40000)
	for i := n - 1; i >= 0; i-- {
		if !it.Valid() || !bytes.Equal(it.Key(), key(i)) {
			t.Fatalf("after the third remap, backward: at %q, want %s (Err %v)", it.Key(), key(i), it.Err())
		}
		it.Prev()
	}
	if it.Valid() || it.Err() != nil {
		t.Fatalf("Prev past the first key rests on %q (Err %v)", it.Key(), it.Err())
	}
}

// openWithMap opens the backend itself, not wrapped by engine.Open, so
// that tests can read its map.
func openWithMap(t *testing.T, dir string, mapSize int64) *DB {
	t.Helper()
	db, err := Open(dir, engine.Options{Engine: &Options{MapSize: mapSize}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// wantKeys checks that db holds n entries, each key(i) with value key(i),
// among them those numbered present.
func wantKeys(t *testing.T, db *DB, n int, key func(int) []byte, present ...int) {
	t.Helper()
	it := enginetest.NewIterator(t, db, engine.IterOptions{})
	defer it.Close()
	count := 0
	for ok := it.First(); ok; ok = it.Next() {
		if !bytes.Equal(it.Key(), it.Value()) {
			t.Fatalf("entry %q holds %q", it.Key(), it.Value())
		}
		count++
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if count != n {
		t.Fatalf("scan finds %d entries, want %d", count, n)
	}
	for _, i := range present {
		if v, err := db.Get(key(i)); err != nil || !bytes.Equal(v, key(i)) {
			t.Fatalf("Get entry %d = %q, %v; want %q", i, v, err, key(i))
		}
	}
}
