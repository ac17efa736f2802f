package supervise

import (
	"fmt"
	"strings"
	"time"

	"github.com/tsbench/storage/internal/cgroup"
)

// newGroup makes the memory cgroup of a child, named after name; nil
// when there is no limit.
func newGroup(limit int64, name string) (*cgroup.Group, error) {
	if limit == 0 {
		return nil, nil
	}
	g, err := cgroup.Create(strings.ReplaceAll(name, "/", "_"), limit)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMemoryGroup, err)
	}
	return g, nil
}

// removeGroup removes g, if not nil.
func removeGroup(g *cgroup.Group) error {
	if g == nil {
		return nil
	}
	return g.Remove()
}

// outOfMemory reports whether the kernel's OOM killer ended a process in
// the child's memory cgroup: the child, or one it started (an etcd
// member).
func (c *Child) outOfMemory() bool {
	if c.group == nil {
		return false
	}
	n, err := c.group.OOMKills()
	return err == nil && n > 0
}

// JoinMemoryGroup waits, in a child with a memory limit (its job's, 0
// for none), until the parent has moved it into its memory cgroup, so
// that the engine's memory is charged to the group from the first byte.
func JoinMemoryGroup(limit int64) error {
	if limit == 0 {
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		g, err := cgroup.Self()
		if err != nil {
			return fmt.Errorf("%w: %w", ErrMemoryGroup, err)
		}
		if g != nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: the parent did not move this process into its group", ErrMemoryGroup)
		}
		time.Sleep(time.Millisecond)
	}
}
