package timeseries

import (
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/dataset"
)

// TestRunReusesDataset saves the write step's points as a dataset, then
// runs again from a clone of it: the second run starts with the query,
// which must read and check every point.
func TestRunReusesDataset(t *testing.T) {
	tmp := t.TempDir()
	cfg := Config{Points: 20_000, Series: 100, Batch: 50, Seed: 3}
	m := dataset.Manifest{Engine: "pebble", Sizes: cfg.sizes()}
	ds, err := dataset.Open(filepath.Join(tmp, "ds"), m)
	if err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(tmp, "run1")
	db, err := engine.Open("pebble", first, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.AfterWrite = func() error { _, err := ds.Save(db, nil); return err }
	if _, err := Run(db, first, c); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ds, err = dataset.Open(filepath.Join(tmp, "ds"), m)
	if err != nil || !ds.Exists() {
		t.Fatalf("the saved dataset: %v", err)
	}
	second := filepath.Join(tmp, "run2")
	if _, err := ds.Clone(second); err != nil {
		t.Fatal(err)
	}
	db, err = engine.Open("pebble", second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c = cfg
	c.Preloaded = true
	res, err := Run(db, second, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 5 || res.Steps[0].Name != StepQuery {
		t.Fatalf("steps of a run from a dataset: %d, first %q", len(res.Steps), res.Steps[0].Name)
	}
	if v := res.Steps[0].Verify; !v.OK() || v.Read != cfg.Points {
		t.Errorf("query after reuse: %+v", v)
	}
}
