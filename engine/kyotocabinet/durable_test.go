package kyotocabinet_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/internal/powercut/powercuttest"
)

// TestLogNameSurvivesCut: under sync "batch" the transaction log's name is
// durable before the first batch, so that a power cut in the middle of a
// commit, which has synced part of the data file already, finds the log
// that undoes it. Kyoto Cabinet never syncs the directory after creating
// its log; without the backend's own sync the log is gone after the cut
// and the last batch acknowledged before it can be torn.
func TestLogNameSurvivesCut(t *testing.T) {
	disk := powercuttest.Mount(t)
	dir := filepath.Join(disk.Dir, "store")
	opts := &engine.Options{Sync: engine.SyncBatch}
	// An existing store, as a writer reopens it after a crash: Open makes
	// a fresh store's names durable itself.
	if err := enginetest.Open(t, "kyotocabinet", dir, opts).Close(); err != nil {
		t.Fatal(err)
	}
	db := enginetest.Open(t, "kyotocabinet", dir, opts)
	if err := db.Put([]byte("key"), []byte("value")); err != nil {
		t.Fatal(err)
	}
	disk.Cut(func() { db.Close() }) // with the store open, as a writer's power fails
	if _, err := os.Stat(filepath.Join(dir, "data.kct.wal")); err != nil {
		t.Errorf("after the cut: %v; the transaction log's name was never made durable", err)
	}
}
