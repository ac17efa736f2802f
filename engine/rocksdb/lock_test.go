package rocksdb

import (
	"errors"
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestOpenLocked checks that a directory RocksDB holds open is reported as
// engine.ErrLocked, from RocksDB's own lock message.
func TestOpenLocked(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	second, err := Open(dir, engine.Options{})
	if err == nil {
		second.Close()
		t.Fatal("second Open of the same directory succeeded")
	}
	if !errors.Is(err, engine.ErrLocked) {
		t.Fatalf("second Open = %v, want engine.ErrLocked", err)
	}
}
