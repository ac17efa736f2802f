package jvm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// TestStaleWorker: a worker's jar older than a file of the worker's main
// source is stale; its tests' files and a missing source are not.
func TestStaleWorker(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "build", "jvm")
	jar := filepath.Join(dir, workerJar)
	main := filepath.Join(root, "jvm", "src", "main", "java", "Main.java")
	test := filepath.Join(root, "jvm", "src", "test", "java", "MainTest.java")
	for _, p := range []string{jar, main, test} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	built := time.Now()
	touch := func(p string, at time.Time) {
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	touch(jar, built)
	touch(main, built.Add(-time.Minute))
	touch(test, built.Add(time.Minute))
	if got := staleWorker(dir); got != "" {
		t.Errorf("with only a test file newer: stale because of %s", got)
	}
	touch(main, built.Add(time.Minute))
	if got := staleWorker(dir); got != main {
		t.Errorf("with the main source newer: %q, want %s", got, main)
	}
	if err := os.RemoveAll(filepath.Join(root, "jvm")); err != nil {
		t.Fatal(err)
	}
	if got := staleWorker(dir); got != "" {
		t.Errorf("without a source: stale because of %s", got)
	}
}

// TestRegistered: the nine stores are engines of the group "jvm", run in
// a process of their own, Chronicle Map the one unordered, lmdbjava the
// one with options of its own, which resolve to their default and refuse
// an unknown buffer.
func TestRegistered(t *testing.T) {
	if g := engine.GroupNames(Group); len(g) != len(stores) {
		t.Fatalf("GroupNames(%s) = %v, want the %d stores", Group, g, len(stores))
	}
	for _, s := range stores {
		d, err := engine.Lookup(s.name)
		if err != nil || d.Process == nil || d.Open != nil || d.Limits.Unordered != (s.name == "chroniclemap") || (d.NewOptions != nil) != (s.name == "lmdbjava") {
			t.Errorf("%s: %+v %v", s.name, d, err)
		}
	}
	o, err := engine.Resolved("lmdbjava", nil)
	if own, ok := o.Engine.(*Options); err != nil || !ok || own.Buffer != "bytebuffer" {
		t.Errorf("lmdbjava's defaults: %+v %v", o.Engine, err)
	}
	if _, err := engine.Resolved("lmdbjava", &engine.Options{Engine: &Options{Buffer: "heap"}}); !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("buffer heap: %v, want ErrInvalidOptions", err)
	}
	if _, err := engine.Open("xodus", t.TempDir(), nil); !errors.Is(err, engine.ErrOutOfProcess) {
		t.Errorf("Open(xodus) = %v, want ErrOutOfProcess", err)
	}
}
