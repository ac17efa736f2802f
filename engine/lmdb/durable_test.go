package lmdb_test

import (
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/internal/powercut/powercuttest"
)

// TestNewStoreSurvivesCut: under sync "none" (MDB_NOSYNC) a store LMDB
// has just created still opens after a power cut, empty: engine.Open
// makes the data file's name durable, so its meta pages must be too, or
// the cut leaves an empty data.mdb that no open accepts.
func TestNewStoreSurvivesCut(t *testing.T) {
	disk := powercuttest.Mount(t)
	dir := filepath.Join(disk.Dir, "store")
	opts := &engine.Options{Sync: engine.SyncNone}
	db := enginetest.Open(t, "lmdb", dir, opts)
	if err := db.Put([]byte("key"), []byte("value")); err != nil {
		t.Fatal(err)
	}
	disk.Cut(func() { db.Close() }) // with the store open, as a writer's power fails
	again, err := engine.Open("lmdb", dir, opts)
	if err != nil {
		t.Fatalf("reopen after the cut: %v", err)
	}
	again.Close()
}
