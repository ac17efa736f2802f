package lmdb_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestTruncatedDataFile checks that a data file shorter than its meta
// page says fails Open with ErrCorrupt, rather than faulting when LMDB
// reads the missing pages.
func TestTruncatedDataFile(t *testing.T) {
	dir := t.TempDir()
	db, err := engine.Open("lmdb", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	for i := range 20000 {
		b.Put(fmt.Appendf(nil, "k%06d", i), make([]byte, 100))
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Intact, it opens.
	if db, err = engine.Open("lmdb", dir, nil); err != nil {
		t.Fatalf("reopen intact: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// 2 MiB of data live in far more than the first 64 KiB.
	if err := os.Truncate(filepath.Join(dir, "data.mdb"), 64<<10); err != nil {
		t.Fatal(err)
	}
	if db, err := engine.Open("lmdb", dir, nil); !errors.Is(err, engine.ErrCorrupt) {
		if err == nil {
			db.Close()
		}
		t.Fatalf("open of a truncated data file = %v, want ErrCorrupt", err)
	}
}
