package sqlite_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/sqlite"
)

func open(t *testing.T, dir string, own sqlite.Options) engine.Engine {
	t.Helper()
	return enginetest.Open(t, "sqlite", dir, &engine.Options{Engine: &own})
}

// TestSingleConnection checks the modes in which one connection serves
// every call: reads work beside an open iterator, writes fail clearly
// instead of showing through its snapshot, and work again once it closes.
func TestSingleConnection(t *testing.T) {
	for _, own := range []sqlite.Options{{LockingMode: "exclusive"}, {JournalMode: "delete"}} {
		t.Run(own.LockingMode+own.JournalMode, func(t *testing.T) {
			dir := t.TempDir()
			db := open(t, dir, own)
			for _, k := range []string{"a", "b", "c"} {
				if err := db.Put([]byte(k), []byte("v"+k)); err != nil {
					t.Fatal(err)
				}
			}
			it := enginetest.NewIterator(t, db, engine.IterOptions{})
			if !it.First() || string(it.Key()) != "a" {
				t.Fatalf("First = %q, want a", it.Key())
			}
			if v, err := db.Get([]byte("b")); err != nil || string(v) != "vb" {
				t.Fatalf("Get(b) beside an iterator = %q, %v; want vb", v, err)
			}
			b := db.NewBatch()
			defer b.Close()
			b.Put([]byte("d"), nil)
			writes := map[string]error{
				"Put":         db.Put([]byte("d"), nil),
				"Delete":      db.Delete([]byte("a")),
				"DeleteRange": db.DeleteRange([]byte("a"), []byte("z")),
				"Commit":      b.Commit(),
			}
			for name, err := range writes {
				if !errors.Is(err, sqlite.ErrIteratorOpen) {
					t.Errorf("%s with an iterator open = %v, want ErrIteratorOpen", name, err)
				}
			}
			if err := db.Compact(nil, nil); !errors.Is(err, engine.ErrOpenIterators) {
				t.Errorf("Compact with an iterator open = %v, want ErrOpenIterators", err)
			}
			var keys []string
			for ok := it.Next(); ok; ok = it.Next() {
				keys = append(keys, string(it.Key()))
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
			if strings.Join(keys, ",") != "b,c" {
				t.Fatalf("Next after First saw %q, want b,c", keys)
			}
			if err := b.Commit(); err != nil {
				t.Fatalf("Commit once the iterator closed: %v", err)
			}
			if err := db.Compact(nil, nil); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			db = open(t, dir, own)
			if v, err := db.Get([]byte("d")); err != nil || len(v) != 0 {
				t.Fatalf("Get(d) after reopen = %q, %v; want the empty value", v, err)
			}
		})
	}
}

func TestBadOptions(t *testing.T) {
	enginetest.BadOptions(t, "sqlite", &sqlite.Options{JournalMode: "wall"}, &sqlite.Options{LockingMode: "shared"},
		&sqlite.Options{PageSize: 1000}, &sqlite.Options{WALAutocheckpoint: -1})
}

// TestBuild checks that the build SQLite reports is measured, and a
// release one: go-sqlite3 compiles the amalgamation without SQLITE_DEBUG.
func TestBuild(t *testing.T) {
	if v := sqlite.Version(); !strings.HasPrefix(v, "3.") || !unicode.IsDigit(rune(v[len(v)-1])) {
		t.Errorf("Version = %q, want 3.x.y", v)
	}
	if b := sqlite.Build(); !strings.HasPrefix(b, "release (SQLITE_DEBUG off") || !strings.Contains(b, "go-sqlite3 v") {
		t.Errorf("Build = %q, want a release amalgamation compiled by go-sqlite3", b)
	}
}
