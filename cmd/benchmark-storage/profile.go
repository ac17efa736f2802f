package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/tsbench/storage/workload/suite"
)

// heapProfilePeriod is how often a profiled child rewrites its heap
// profile: an engine the OOM killer ends leaves one at most this old.
const heapProfilePeriod = 10 * time.Second

// checkProfile checks -profile: an existing directory, and Go engines
// only, since the JVM worker writes no pprof profiles.
func checkProfile(s *settings) error {
	if s.profile == "" {
		return nil
	}
	if names := outOfProcess(s); len(names) > 0 {
		return inputErrorf("-profile: %s runs in the JVM worker, which writes no pprof profiles: drop -profile, or profile the JVM with its own tools (JFR)", names[0])
	}
	if fi, err := os.Stat(s.profile); err != nil || !fi.IsDir() {
		return inputErrorf("-profile %s is not a directory: create it first or name another", s.profile)
	}
	return nil
}

// runProfiled runs the workload (runCaught), with -profile writing this
// child's profiles, named after its data directory (the engine's name,
// and its run number with -count): NAME-cpu.pprof of the whole run, and
// NAME-heap.pprof every heapProfilePeriod and at the end. A profile that
// cannot be written is reported on stderr; the run goes on.
func runProfiled(s *settings, e *suite.Engine, stderr io.Writer) (*suite.Result, error) {
	if s.profile == "" {
		return runCaught(s, e, stderr)
	}
	base := filepath.Join(s.profile, filepath.Base(e.Dir))
	warn := func(err error) {
		if err != nil {
			fmt.Fprintf(stderr, "benchmark-storage: %s: profile: %v\n", e.Name, err)
		}
	}
	cpu, err := os.Create(base + "-cpu.pprof")
	warn(err)
	if err == nil {
		warn(pprof.StartCPUProfile(cpu))
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(heapProfilePeriod)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				warn(writeHeapProfile(base + "-heap.pprof"))
			}
		}
	}()
	res, runErr := runCaught(s, e, stderr)
	close(done)
	if cpu != nil {
		pprof.StopCPUProfile()
		warn(cpu.Close())
	}
	warn(writeHeapProfile(base + "-heap.pprof"))
	return res, runErr
}

// writeHeapProfile replaces the heap profile at path, through a
// temporary file, so that a process killed while writing leaves the
// previous one whole.
func writeHeapProfile(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = errors.Join(pprof.Lookup("heap").WriteTo(f, 0), f.Close())
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
