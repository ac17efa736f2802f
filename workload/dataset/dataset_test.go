package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/pebble"
)

func manifest(points int64) Manifest {
	return Manifest{Engine: "pebble", Version: engine.Version("pebble"), Sizes: Sizes{Points: points, Series: 10, Batch: 5, Seed: 1},
		Options: map[string]any{"cache_size": int64(8 << 20), "pebble": map[string]any{"l0_compaction_threshold": int64(4)}}}
}

func fill(t *testing.T, db engine.Engine, n int) {
	t.Helper()
	for i := range n {
		if err := db.Put(fmt.Appendf(nil, "k%06d", i), fmt.Appendf(nil, "v%d", i)); err != nil {
			t.Fatal(err)
		}
	}
}

func count(t *testing.T, db engine.Engine) int {
	t.Helper()
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if want := fmt.Sprintf("k%06d", n); string(it.Key()) != want {
			t.Fatalf("entry %d is %q, want %q", n, it.Key(), want)
		}
		n++
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSaveOpenClone writes a dataset, finds it again with the same
// parameters, clones it twice and checks that a run writing to one clone
// changes neither the dataset nor the other clone.
func TestSaveOpenClone(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "ds")
	ds, err := Open(dir, manifest(1000))
	if err != nil || ds.Exists() {
		t.Fatalf("Open of a new dataset: %v, exists %v", err, ds != nil && ds.Exists())
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open created %s: %v", dir, err)
	}
	db, err := engine.Open("pebble", filepath.Join(tmp, "run1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, db, 1000)
	saved, err := ds.Save(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Reused || saved.Save <= 0 || saved.Created.IsZero() || !filepath.IsAbs(saved.Path) {
		t.Errorf("save %+v", saved)
	}
	fill(t, db, 1500) // after the save: not in the dataset
	db.Close()

	ds, err = Open(dir, manifest(1000))
	if err != nil || !ds.Exists() {
		t.Fatalf("Open of the written dataset: %v", err)
	}
	for _, run := range []string{"run2", "run3"} {
		reuse, err := ds.Clone(filepath.Join(tmp, run))
		if err != nil {
			t.Fatal(err)
		}
		if !reuse.Reused || reuse.Created.IsZero() || reuse.Method == "" || !filepath.IsAbs(reuse.Path) {
			t.Errorf("reuse %+v", reuse)
		}
		db, err := engine.Open("pebble", filepath.Join(tmp, run), nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := count(t, db); n != 1000 {
			t.Errorf("%s: clone holds %d entries, want the 1000 saved", run, n)
		}
		fill(t, db, 3000)
		if err := db.Compact(nil, nil); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	db, err = engine.Open("pebble", filepath.Join(dir, dataDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := count(t, db); n != 1000 {
		t.Errorf("the dataset holds %d entries after runs wrote to its clones, want 1000", n)
	}
}

func TestOpenMismatch(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "ds")
	db, err := engine.Open("pebble", filepath.Join(tmp, "run"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ds, _ := Open(dir, manifest(100))
	if _, err := ds.Save(db, nil); err != nil {
		t.Fatal(err)
	}
	other := manifest(200)
	other.Options["pebble"].(map[string]any)["l0_compaction_threshold"] = int64(8)
	_, err = Open(dir, other)
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("Open with other parameters: %v", err)
	}
	for _, want := range []string{"points 200 (dataset: 100)", "option pebble.l0_compaction_threshold 8 (dataset: 4)", "give another -dataset"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "cache_size") || strings.Contains(err.Error(), "seed") {
		t.Errorf("error %q names parameters that are equal", err)
	}

	// Options that change only how the store is read serve one dataset.
	reader := manifest(100)
	reader.Options["cache_size"], reader.Options["sync"] = int64(64<<20), "batch"
	if ds, err := Open(dir, reader); err != nil || !ds.Exists() {
		t.Errorf("Open with another cache size and sync: %v; want the dataset reused", err)
	}
	byOther := manifest(100)
	byOther.Engine = "rocksdb"
	if _, err := Open(dir, byOther); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "written by pebble, not rocksdb") || strings.Contains(err.Error(), "option") {
		t.Errorf("Open for another engine: %v; want one reason, written by pebble", err)
	}
}

func TestOpenIncomplete(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, manifest(100)); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("Open of a directory without manifest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err != nil {
		t.Errorf("Open touched the directory: %v", err)
	}
}
