package cgroup

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Self returns the group this process runs in if this package created
// it (it is under benchmark-storage/), or nil and no error otherwise,
// so that a child can read its own usage at each step. FD of the group
// it returns is not available, and Remove fails while the process is
// inside.
func Self() (*Group, error) {
	h, err := detect()
	if errors.Is(err, ErrUnavailable) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	text, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	p, ok := cgroupPath(text, h.v2)
	if !ok {
		return nil, nil
	}
	dir, ok := h.groupDir(p)
	if !ok {
		return nil, nil
	}
	g := &Group{h: h, dir: dir, dirFD: -1}
	limitFile := "memory.limit_in_bytes"
	if h.v2 {
		limitFile = "memory.max"
	}
	if g.limit, err = readValue(g.file(limitFile)); err != nil {
		return nil, err
	}
	return g, nil
}

// cgroupPath finds, in the text of /proc/<pid>/cgroup, the path of the
// process's group in the memory hierarchy: v1 lines read
// "ID:controllers:path" with "memory" among the controllers, the v2 line
// reads "0::path".
func cgroupPath(text []byte, v2 bool) (string, bool) {
	for line := range bytes.Lines(text) {
		parts := strings.SplitN(strings.TrimSuffix(string(line), "\n"), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if v2 && parts[0] == "0" && parts[1] == "" ||
			!v2 && slices.Contains(strings.Split(parts[1], ","), "memory") {
			return parts[2], true
		}
	}
	return "", false
}

// RemoveStale removes the groups under benchmark-storage/ that a killed
// run left: those whose creator's pid (the prefix of the name Create
// gave) is no longer running and which hold no process. It leaves
// everything else alone, including a stale group whose pid a new
// process has taken, and returns the paths it removed.
func RemoveStale() (removed []string, err error) {
	h, err := usable()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(h.parent())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	for _, e := range entries {
		pid, ok := creator(e.Name())
		if !e.IsDir() || !ok || running(pid) {
			continue
		}
		dir := filepath.Join(h.parent(), e.Name())
		procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		if errors.Is(err, os.ErrNotExist) {
			continue // another process removed it first
		}
		if err != nil {
			return removed, fmt.Errorf("cgroup: %w", err)
		}
		if len(bytes.TrimSpace(procs)) > 0 {
			continue
		}
		// ENOENT: removed meanwhile; EBUSY: a process or a child group
		// came in meanwhile.
		switch err := unix.Rmdir(dir); {
		case err == nil:
			removed = append(removed, dir)
		case !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EBUSY):
			return removed, fmt.Errorf("cgroup: removing %s: %w", dir, err)
		}
	}
	return removed, nil
}

// creator parses the pid that Create puts at the start of a group's
// name.
func creator(name string) (int, bool) {
	prefix, _, ok := strings.Cut(name, "-")
	pid, err := strconv.ParseInt(prefix, 10, 32) // pid_t
	return int(pid), ok && err == nil && pid > 0 && prefix == strconv.FormatInt(pid, 10)
}

// running reports whether a process pid exists: signal 0 checks without
// sending, and EPERM means it exists as another user's.
func running(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
