package sqlite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestCheck checks that Check passes an intact database and reports
// garbage written over a B-tree page as engine.ErrCorrupt.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		if err := db.Put(fmt.Appendf(nil, "k%05d", i), fmt.Appendf(nil, "value %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Compact(nil, nil); err != nil { // everything into the file
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Fatalf("Check of an intact database = %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, fileName), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, 2048)
	for i := range garbage {
		garbage[i] = byte(i*7 + 3)
	}
	// The middle of the fourth page, a B-tree page of the kv table.
	if _, err := f.WriteAt(garbage, 3*DefaultPageSize+1024); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = Open(dir, engine.Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); !errors.Is(err, engine.ErrCorrupt) {
		t.Fatalf("Check of a damaged database = %v, want engine.ErrCorrupt", err)
	}
}
