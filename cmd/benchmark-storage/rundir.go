package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// runDir is the directory one run creates under -path, holding one
// subdirectory per engine. It is the only thing the tool ever deletes:
// never -path itself or anything that was there before (the 2014 tool
// deleted /tmp/test-* whatever path it was given).
type runDir struct {
	path string
}

// createRunDir makes a fresh, empty benchmark-storage-* directory in parent.
// Failing to is an input error: the user chose the parent.
func createRunDir(parent string) (*runDir, error) {
	p, err := os.MkdirTemp(parent, "benchmark-storage-*")
	if err != nil {
		return nil, inputErrorf("-path %s: cannot create the run directory: %v: choose a directory you can write to", parent, unwrapPath(err))
	}
	// Absolute, so the paths printed and given to children say where.
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return &runDir{path: p}, nil
}

// engineDir creates the empty data directory of one run of an engine,
// named after it (and the run's number with -count). Mkdir, not
// MkdirAll: it must not exist yet.
func (r *runDir) engineDir(name string) (string, error) {
	dir := filepath.Join(r.path, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", fmt.Errorf("create data directory: %w", err)
	}
	return dir, nil
}

// removeEngine deletes one run's data as soon as it is over, so that
// engines run one after another never need the disk space of all.
func (r *runDir) removeEngine(name string) error {
	return os.RemoveAll(filepath.Join(r.path, name))
}

// remove deletes the run directory and everything in it.
func (r *runDir) remove() error {
	return os.RemoveAll(r.path)
}
