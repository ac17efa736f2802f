package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsbench/storage/internal/cgroup"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// checkMemory checks -memory: at least cgroup.MinLimit, at most this
// machine's memory, and a memory cgroup can be made here.
func checkMemory(limit int64) error {
	if limit == 0 {
		return nil
	}
	if limit < cgroup.MinLimit {
		return inputErrorf("-memory %s is below the minimum of %s: no engine opens in less; raise it", report.Bytes(limit), report.Bytes(cgroup.MinLimit))
	}
	if mem := harness.MemoryBytes(); mem > 0 && limit > mem {
		return inputErrorf("-memory %s is more than this machine's memory (%s): use at most that, or leave -memory out for no limit", report.Bytes(limit), report.Bytes(mem))
	}
	if err := cgroup.Available(); err != nil {
		return inputErrorf("-memory: %s", strings.TrimPrefix(err.Error(), cgroup.ErrUnavailable.Error()+": "))
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

// newMemoryGroup makes the memory cgroup of one engine process of run
// runID, whose data is in sub; nil when there is no limit.
func newMemoryGroup(limit int64, runID, sub string) (*cgroup.Group, error) {
	if limit == 0 {
		return nil, nil
	}
	g, err := cgroup.Create(runID+"-"+strings.ReplaceAll(sub, "/", "_"), limit)
	if err != nil {
		return nil, fmt.Errorf("memory cgroup: %w", err)
	}
	return g, nil
}

// outOfMemory is the error of a child whose memory group g saw the
// kernel's OOM killer end a process: the engine's own, or one it
// started (an etcd member), or nil if it did not.
func outOfMemory(g *cgroup.Group, st *lastStatus) error {
	if g == nil {
		return nil
	}
	if n, err := g.OOMKills(); err != nil || n == 0 {
		return nil
	}
	return fmt.Errorf("out of memory %s (limit %s): the kernel's OOM killer ended the engine process or one it started", st.where(), report.Bytes(g.Limit()))
}

// joinMemoryGroup waits, in a child run with -memory, until the parent
// has moved this process into its memory cgroup, so that the engine's
// memory is charged to it from the first byte.
func joinMemoryGroup(limit int64) error {
	if limit == 0 {
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		g, err := cgroup.Self()
		if err != nil {
			return fmt.Errorf("memory cgroup: %w", err)
		}
		if g != nil {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("memory cgroup: the parent did not move this process into its group")
		}
		time.Sleep(time.Millisecond)
	}
}
