package lmdb

import (
	"bytes"
	"errors"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
)

// TestKeySize checks LMDB's key limit on the backend itself, without
// engine.Open's checks: longer keys are refused on write with
// engine.ErrTooLarge, are simply absent on read, and work as seek targets
// and bounds.
func TestKeySize(t *testing.T) {
	db := openWithMap(t, t.TempDir(), 0)
	max := bytes.Repeat([]byte{'k'}, maxKeySize)
	long := append(bytes.Clone(max), 'k')
	if err := db.Put(max, []byte("v")); err != nil {
		t.Fatalf("Put of a %d-byte key: %v", len(max), err)
	}
	if err := db.Put(long, []byte("v")); !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("Put of a %d-byte key = %v, want engine.ErrTooLarge", len(long), err)
	}
	b := db.NewBatch()
	defer b.Close()
	b.Put([]byte("a"), nil)
	b.Put(long, nil)
	if err := b.Commit(); !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("Commit of a batch with a %d-byte key = %v, want engine.ErrTooLarge", len(long), err)
	}
	if _, err := db.Get([]byte("a")); !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("Get of a key from the refused batch = %v, want ErrNotFound", err)
	}
	if _, err := db.Get(long); !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("Get of a %d-byte key = %v, want ErrNotFound", len(long), err)
	}
	if err := db.Delete(long); err != nil {
		t.Fatalf("Delete of a %d-byte key = %v, want nil", len(long), err)
	}
	// max sorts below long, its extension.
	it := enginetest.NewIterator(t, db, engine.IterOptions{UpperBound: long})
	defer it.Close()
	if !it.Last() || !bytes.Equal(it.Key(), max) {
		t.Fatalf("Last below a %d-byte upper bound = %q, %v; want the %d-byte key", len(long), it.Key(), it.Err(), len(max))
	}
	if it.Seek(long) || it.Err() != nil {
		t.Fatalf("Seek to a %d-byte key found %q, %v; want nothing", len(long), it.Key(), it.Err())
	}
}
