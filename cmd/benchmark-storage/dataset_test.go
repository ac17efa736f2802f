package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/suite"
)

// TestDatasetMismatch checks that a dataset written with other
// parameters stops the run before anything is created or deleted, in
// one line naming the parameter.
func TestDatasetMismatch(t *testing.T) {
	a := engine.Names()[0]
	parent, ds := t.TempDir(), t.TempDir()
	s, err := parseFlags([]string{"-engine", a, "-path", parent, "-points", "2k", "-series", "20", "-dataset", ds})
	if err != nil {
		t.Fatal(err)
	}
	m := suite.Manifest(s.common.Sizes(), a, s.effective(a))
	m.Format, m.Points = 1, 1000 // written by a run of 1k points
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(ds, a)
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, wl := range [][]string{{"-workload", "ts"}, {"-workload", "mixed", "-duration", "1s"}} {
		args := append([]string{"-engine", a, "-path", parent, "-points", "2k", "-series", "20", "-dataset", ds}, wl...)
		checkRefused(t, "points", args...)
		checkUntouched(t, parent)
		checkUntouched(t, dir, "data", "manifest.json")
	}
}
