package sqlite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
)

// TestCheck checks that Check passes an intact database and reports
// garbage written over a B-tree page as engine.ErrCorrupt.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	check := func(want func(error) bool, what string) {
		t.Helper()
		db := enginetest.Open(t, "sqlite", dir, nil)
		defer db.Close()
		if err := engine.Check(db); !want(err) {
			t.Fatalf("Check of %s = %v", what, err)
		}
	}
	db := enginetest.Open(t, "sqlite", dir, nil)
	for i := range 2000 {
		if err := db.Put(fmt.Appendf(nil, "k%05d", i), fmt.Appendf(nil, "value %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(db.Compact(nil, nil), db.Close()); err != nil { // everything into the file
		t.Fatal(err)
	}
	check(func(err error) bool { return err == nil }, "an intact database")

	garbage := make([]byte, 2048)
	for i := range garbage {
		garbage[i] = byte(i*7 + 3)
	}
	f, err := os.OpenFile(filepath.Join(dir, fileName), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The middle of the fourth page, a B-tree page of the kv table.
	if _, err := f.WriteAt(garbage, 3*DefaultPageSize+1024); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	check(func(err error) bool { return errors.Is(err, engine.ErrCorrupt) }, "a damaged database (want engine.ErrCorrupt)")
}
