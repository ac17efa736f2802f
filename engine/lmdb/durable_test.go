package lmdb_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/powercut"
)

// TestNewStoreSurvivesCut: under sync "none" (MDB_NOSYNC) a store LMDB
// has just created still opens after a power cut, empty: engine.Open
// makes the data file's name durable, so its meta pages must be too, or
// the cut leaves an empty data.mdb that no open accepts.
func TestNewStoreSurvivesCut(t *testing.T) {
	if err := powercut.Available(); err != nil {
		t.Skip(err)
	}
	backing, mnt := t.TempDir(), t.TempDir()
	fs, err := powercut.Mount(mnt, backing, powercut.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fs.Cut()
		<-fs.Done()
		if err := powercut.Cleanup(mnt); err != nil {
			t.Error(err)
		}
	})
	dir := mnt + "/store"
	opts := &engine.Options{Sync: engine.SyncNone}
	db, err := engine.Open("lmdb", dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	b.Put([]byte("key"), []byte("value"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	// The cut with the store open; closing it then acts on the abandoned
	// state, and lets the server go.
	if err := fs.Cut(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	<-fs.Done()
	if fs, err = powercut.Mount(mnt, backing, powercut.Options{}); err != nil {
		t.Fatal(err)
	}
	again, err := engine.Open("lmdb", dir, opts)
	if err != nil {
		t.Fatalf("reopen after the cut: %v", err)
	}
	again.Close()
}
