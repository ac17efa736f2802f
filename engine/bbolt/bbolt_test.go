package bbolt_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/bbolt"
	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "bbolt", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "bbolt") }

// TestMetricsFreeBytes: deleting what was written leaves free pages in
// the file, and the engine says how many bytes they hold.
func TestMetricsFreeBytes(t *testing.T) {
	db := enginetest.Open(t, "bbolt", t.TempDir(), nil)
	value := make([]byte, 1<<10)
	for i := range 2000 {
		if err := db.Put(fmt.Appendf(nil, "k%05d", i), value); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.DeleteRange(nil, nil); err != nil {
		t.Fatal(err)
	}
	m, err := engine.ReadMetrics(db)
	if err != nil {
		t.Fatal(err)
	}
	// 2 MB of values went; at least half their pages must be free.
	if free := m[engine.MetricFreeBytes]; free < 1<<20 {
		t.Errorf("%s = %d after deleting 2000 values of 1 KiB; want at least 1 MiB", engine.MetricFreeBytes, free)
	}
}

// TestReadOnlyOpenWritesNothing: opening a store and reading it leaves its
// file as it was; the bucket is made only in a new store.
func TestReadOnlyOpenWritesNothing(t *testing.T) {
	dir := t.TempDir()
	db := enginetest.Open(t, "bbolt", dir, nil)
	if err := db.Put([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "data.db")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db = enginetest.Open(t, "bbolt", dir, nil)
	if v, err := db.Get([]byte("k")); err != nil || string(v) != "v" {
		t.Fatalf("Get after reopening = %q, %v; want v", v, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("opening the store and reading it changed data.db (%v)", err)
	}
}
