package enginetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
)

// testBatchSize checks Size and Reset: Size counts the bytes of keys and
// values recorded, the same for every engine, and Reset drops them
// without applying anything.
func testBatchSize(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	b := sized(t, db.NewBatch())
	defer b.Close()
	want := func(call string, n, size int) {
		t.Helper()
		if b.Len() != n || b.Size() != size {
			t.Fatalf("after %s: Len %d, Size %d; want %d, %d", call, b.Len(), b.Size(), n, size)
		}
	}
	want("NewBatch", 0, 0)
	b.Put([]byte("a"), []byte("123"))
	want("Put(a, 123)", 1, 4)
	b.Delete([]byte("bb"))
	want("Delete(bb)", 2, 6)
	b.Put([]byte("c"), nil)
	want("Put(c, nil)", 3, 7)
	commit(t, b)
	want("Commit", 0, 0)
	wantScan(t, db, nil, nil, []kv{{"a", "123"}, {"c", ""}})

	b.Put([]byte("d"), []byte("dropped"))
	b.Delete([]byte("a"))
	b.Reset()
	want("Reset", 0, 0)
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{"a", "123"}, {"c", ""}})
	b.Put([]byte("e"), []byte("5"))
	want("Put after Reset", 1, 2)
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{"a", "123"}, {"c", ""}, {"e", "5"}})
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b.Reset() // must not crash
	want("Close", 0, 0)
}

// testFailedCommit checks the batch rule on the failure every engine can
// produce, a Commit after the engine's Close: the batch is unchanged and
// nothing was applied.
func testFailedCommit(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	put(t, db, "x", "vx")
	b := sized(t, db.NewBatch())
	defer b.Close()
	b.Put([]byte("a"), []byte("1"))
	b.Delete([]byte("x"))
	n, size := b.Len(), b.Size()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("Commit after the engine's Close = %v, want an error wrapping engine.ErrClosed", err)
	}
	if b.Len() != n || b.Size() != size {
		t.Fatalf("after a failed Commit: Len %d, Size %d; want them unchanged, %d and %d", b.Len(), b.Size(), n, size)
	}
	db = mustOpen(t, open, dir)
	wantScan(t, db, nil, nil, []kv{{"x", "vx"}})
}

// testLargeBatch commits 16 MiB in one batch. An engine either applies it
// or refuses it with engine.ErrTooLarge, applying none of it and leaving
// the batch unchanged, so that a retry fails alike and Reset empties it.
func testLargeBatch(t *testing.T, open Factory, dir string) {
	const (
		n        = 4096
		valueLen = 4 << 10
	)
	db := mustOpen(t, open, dir)
	b := sized(t, db.NewBatch())
	defer b.Close()
	key := func(i int) string { return fmt.Sprintf("large/%05d", i) }
	for i := range n {
		b.Put([]byte(key(i)), randomBytes(uint64(i), valueLen))
	}
	size := b.Size()
	err := b.Commit()
	if err == nil {
		if b.Len() != 0 || b.Size() != 0 {
			t.Fatalf("after a Commit: Len %d, Size %d; want 0, 0", b.Len(), b.Size())
		}
		wantGet(t, db, key(0), string(randomBytes(0, valueLen)))
		wantGet(t, db, key(n-1), string(randomBytes(n-1, valueLen)))
		return
	}
	if !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("Commit of a %d-byte batch = %v; want success or an error wrapping engine.ErrTooLarge", size, err)
	}
	t.Logf("a %d-byte batch is refused: %v", size, err)
	for try := 1; ; try++ {
		if b.Len() != n || b.Size() != size {
			t.Fatalf("after failed Commit #%d: Len %d, Size %d; want them unchanged, %d and %d", try, b.Len(), b.Size(), n, size)
		}
		wantMissing(t, db, key(0))
		wantMissing(t, db, key(n-1))
		if try == 2 {
			break
		}
		if err := b.Commit(); !errors.Is(err, engine.ErrTooLarge) {
			t.Fatalf("second Commit of the refused batch = %v, want engine.ErrTooLarge again", err)
		}
	}
	b.Reset()
	b.Put([]byte(key(0)), []byte("small"))
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{key(0), "small"}})
}
