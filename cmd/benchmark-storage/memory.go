package main

import (
	"fmt"
	"io"

	"github.com/tsbench/storage/internal/cgroup"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// checkMemory checks -memory, at least cgroup.MinLimit already
// (memoryValue): at most this machine's memory, and a memory cgroup can
// be made here.
func checkMemory(limit int64) error {
	if limit == 0 {
		return nil
	}
	if mem := harness.MemoryBytes(); mem > 0 && limit > mem {
		return inputErrorf("-memory %s is more than this machine's memory (%s): use at most that, or leave -memory out for no limit", report.Bytes(limit), report.Bytes(mem))
	}
	if err := cgroup.Available(); err != nil {
		return inputErrorf("-memory: %v", suite.Unprefixed(err, cgroup.ErrUnavailable))
	}
	return nil
}

// removeStaleGroups removes the memory cgroups of runs that were killed
// before they could, and says so on w.
func removeStaleGroups(w io.Writer) {
	removed, err := cgroup.RemoveStale()
	for _, p := range removed {
		fmt.Fprintf(w, "benchmark-storage: removed %s, the memory cgroup of a run that was killed\n", p)
	}
	if err != nil {
		fmt.Fprintf(w, "benchmark-storage: stale memory cgroups: %v\n", err)
	}
}
