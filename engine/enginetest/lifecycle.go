package enginetest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
)

func testPersistence(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	big := string(randomBytes(3, 1<<20))
	putAll(t, db, "a", "b", "c", "d", "e", "f", "\x00", "\xff")
	put(t, db, "big", big)
	put(t, db, "blank", "")
	b := db.NewBatch()
	b.Put([]byte("batch1"), []byte("1"))
	b.Put([]byte("batch2"), []byte("2"))
	b.Delete([]byte("a"))
	commit(t, b)
	b.Close()
	del(t, db, "b")
	deleteRange(t, db, "d", "f")
	put(t, db, "c", "overwritten")
	want := []kv{
		{"\x00", "v\x00"}, {"batch1", "1"}, {"batch2", "2"}, {"big", big},
		{"blank", ""}, {"c", "overwritten"}, {"f", "vf"}, {"\xff", "v\xff"},
	}
	wantScan(t, db, nil, nil, want)

	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, want)
	wantGet(t, db, "big", big)
	wantMissing(t, db, "a")
	wantMissing(t, db, "e")

	// Writes after a reopen persist too.
	put(t, db, "g", "after reopen")
	deleteRange(t, db, "batch1", "big")
	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, []kv{
		{"\x00", "v\x00"}, {"big", big}, {"blank", ""}, {"c", "overwritten"},
		{"f", "vf"}, {"g", "after reopen"}, {"\xff", "v\xff"},
	})
}

func testUseAfterClose(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	put(t, db, "a", "1")
	early := db.NewBatch() // made before Close, committed after
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	k := []byte("a")
	late := db.NewBatch()
	late.Put(k, k)
	early.Put(k, k)
	calls := []struct {
		name string
		call func() error
	}{
		{"Get", func() error { _, err := db.Get(k); return err }},
		{"Put", func() error { return db.Put(k, k) }},
		{"Delete", func() error { return db.Delete(k) }},
		{"DeleteRange", func() error { return db.DeleteRange(k, []byte("b")) }},
		{"NewIterator", func() error { _, err := db.NewIterator(engine.IterOptions{}); return err }},
		{"NewBatch().Commit", late.Commit},
		{"Batch made before Close: Commit", early.Commit},
		{"Compact", func() error { return db.Compact(nil, nil) }},
		{"Close again", db.Close},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, engine.ErrClosed) {
			t.Errorf("%s after Close = %v, want an error wrapping engine.ErrClosed", c.name, err)
		}
	}
	late.Close()
	early.Close()

	db = mustOpen(t, open, dir)
	wantScan(t, db, nil, nil, []kv{{"a", "1"}})
}

func testCloseWithOpenIterator(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "a")
	it := newIter(t, db, nil, nil)
	if err := db.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("Close with an open iterator = %v, want an error wrapping engine.ErrOpenIterators", err)
	}
	// Everything still works, the iterator included.
	wantAt(t, it, "First on the iterator", it.First(), "a")
	put(t, db, "b", "vb")
	wantGet(t, db, "b", "vb")
	closeIter(t, it)
	if err := db.Close(); err != nil {
		t.Fatalf("Close after closing the iterator: %v", err)
	}
	db = mustOpen(t, open, dir)
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"b", "vb"}})
}

func testIteratorAfterClose(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "a", "b")
	it := newIter(t, db, nil, nil)
	wantAt(t, it, "First", it.First(), "a")
	closeIter(t, it)
	wantAt(t, it, "First after Iterator.Close", it.First(), "")
	wantAt(t, it, "Last after Iterator.Close", it.Last(), "")
	wantAt(t, it, "Seek after Iterator.Close", it.Seek([]byte("a")), "")
	wantAt(t, it, "Next after Iterator.Close", it.Next(), "")
	wantAt(t, it, "Prev after Iterator.Close", it.Prev(), "")
	it.Key() // must not crash
	it.Value()
	if err := it.Close(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("second Iterator.Close = %v, want an error wrapping engine.ErrClosed", err)
	}
	// The second Close must not have uncounted another iterator.
	other := newIter(t, db, nil, nil)
	if err := db.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("Close with one open iterator, after closing another twice = %v, want engine.ErrOpenIterators", err)
	}
	closeIter(t, other)
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// markerFile is the name engine.Open uses to record which engine owns a
// directory.
const markerFile = "ENGINE"

func testWrongEngine(t *testing.T, open Factory, dir string) {
	marker := filepath.Join(dir, markerFile)
	if err := os.WriteFile(marker, []byte("some-other-engine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := safeOpen(t, open, dir); !errors.Is(err, engine.ErrWrongEngine) {
		t.Fatalf("open a directory marked as some-other-engine's = %v, want an error wrapping engine.ErrWrongEngine", err)
	}
	if b, err := os.ReadFile(marker); err != nil || string(b) != "some-other-engine\n" {
		t.Fatalf("marker after a refused open = %q, %v; want it untouched", b, err)
	}
}

func testUnwritableDir(t *testing.T, open Factory, dir string) {
	t.Run("under a regular file", func(t *testing.T) {
		file := filepath.Join(dir, "file")
		if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := safeOpen(t, open, filepath.Join(file, "db")); err == nil {
			t.Fatalf("open a path under a regular file succeeded, want an error")
		}
	})
	t.Run("read-only", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root ignores directory permissions")
		}
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(ro, 0o700) // let t.TempDir clean up
		if err := safeOpen(t, open, ro); err == nil {
			t.Fatalf("open a read-only directory succeeded, want an error")
		}
	})
}
