package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tsbench/storage/internal/measure"
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
	// Which process owns it, so that a later run can tell it was left by
	// a run that was killed.
	if id := processID(os.Getpid()); id != "" {
		if err := os.WriteFile(filepath.Join(p, ownerFile), []byte(id+"\n"), 0o644); err != nil {
			os.RemoveAll(p)
			return nil, inputErrorf("-path %s: cannot write in the run directory: %v", parent, unwrapPath(err))
		}
	}
	return &runDir{path: p}, nil
}

// ownerFile in a run directory names the process that created it
// (processID).
const ownerFile = ".owner"

// processID names process pid for as long as it lives: its pid and its
// start time (measure.StartTime). "" if unreadable.
func processID(pid int) string {
	start, err := measure.StartTime(pid)
	if err != nil {
		return ""
	}
	return strconv.Itoa(pid) + " " + strconv.FormatInt(start, 10)
}

// reportStaleRunDirs names the run directories in parent that a run
// which was killed left behind, with the command that removes them. It
// removes nothing: only the user knows whether they still want the data.
func reportStaleRunDirs(parent string, w io.Writer) {
	dirs, _ := filepath.Glob(filepath.Join(parent, "benchmark-storage-*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue // not a run directory of this tool, or one that was kept
		}
		id := strings.TrimSpace(string(b))
		pid, _, _ := strings.Cut(id, " ")
		n, err := strconv.Atoi(pid)
		if err != nil || processID(n) == id {
			continue // still running
		}
		fmt.Fprintf(w, "benchmark-storage: %s was left by a run that was killed (process %s); remove it with: rm -rf %s\n", d, pid, d)
	}
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

// release marks a kept run directory as no longer the run's: it is the
// user's data now, not a run that was killed.
func (r *runDir) release() error {
	return os.Remove(filepath.Join(r.path, ownerFile))
}

// remove deletes the run directory and everything in it.
func (r *runDir) remove() error {
	return os.RemoveAll(r.path)
}
