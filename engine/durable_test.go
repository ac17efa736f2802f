package engine_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/internal/powercut/powercuttest"
)

// nestedFile is where the testnested backend keeps its one file, two
// directories below its store, as an etcd member keeps member/wal/.
var nestedFile = filepath.Join("member", "wal", "0.wal")

// nestedData is what the testnested backend writes into nestedFile.
var nestedData = []byte("a synced record\n")

func init() {
	// testnested creates directories in its store and syncs its file but
	// none of them, as etcd's members do.
	engine.Register("testnested", engine.Driver{Open: func(dir string, _ engine.Options) (engine.Backend, error) {
		path := filepath.Join(dir, nestedFile)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if _, err := f.Write(nestedData); err != nil {
			return nil, err
		}
		if err := f.Sync(); err != nil {
			return nil, err
		}
		return memory.New(), nil
	}})
}

// TestFreshStoreTreeSurvivesCut: Open makes the names of every directory
// a backend created in a fresh store durable, however deep, so a power cut
// right after Open leaves the backend's synced files where it put them.
func TestFreshStoreTreeSurvivesCut(t *testing.T) {
	disk := powercuttest.Mount(t)
	dir := filepath.Join(disk.Dir, "store")
	db, err := engine.Open("testnested", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	disk.Cut(nil)
	got, err := os.ReadFile(filepath.Join(dir, nestedFile))
	if err != nil {
		t.Fatalf("after the cut: %v", err)
	}
	if !bytes.Equal(got, nestedData) {
		t.Fatalf("after the cut %s holds %q, want %q", nestedFile, got, nestedData)
	}
}
