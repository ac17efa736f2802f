package cgroup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// MinLimit is the smallest limit Create accepts, in bytes: below it a Go
// runtime and an engine's caches leave too little to measure anything
// but the OOM killer.
const MinLimit = 64 << 20

// removeWait is how long Remove waits for the kernel to finish tearing
// down processes that have exited or been killed.
const removeWait = 2 * time.Second

// Group is a memory cgroup created by Create or found by Self. Its
// methods may be called from several goroutines.
type Group struct {
	h     hierarchy
	dir   string
	limit int64

	mu sync.Mutex
	// dirFD is the open group directory on v2, for starting a child in
	// it; -1 on v1, for a group from Self, and after Remove.
	dirFD int
	// peak is memory.peak (v2) opened by ResetPeak: the kernel resets
	// the peak only for reads through the descriptor that wrote.
	peak *os.File
	// sampled is set where the kernel cannot give the peak (v2 before
	// Linux 6.12 after a ResetPeak, or before 5.19 at all): the peak is
	// then sampledPeak, the largest memory.current Usage has read.
	sampled     bool
	sampledPeak int64
	// removed makes Remove idempotent.
	removed bool
}

// Create creates the group <memory root>/benchmark-storage/<pid>-<name>
// with a limit of limit bytes, where pid is this process's: the pid
// lets RemoveStale recognise groups left by a process that was killed.
// The limit counts page cache as well as anonymous memory, and the
// kernel rounds it down to a page multiple. Where the kernel accounts
// swap, Create also caps the group's swap at zero (v1
// memory.memsw.limit_in_bytes, v2 memory.swap.max), so that swapping
// cannot stretch the limit: the group's anonymous memory beyond the
// limit is OOM-killed instead. Where it does not, the group may swap.
//
// A limit below MinLimit is refused with ErrLimitTooLow; a machine
// without usable memory groups gives ErrUnavailable.
func Create(name string, limit int64) (*Group, error) {
	if name == "" || strings.ContainsAny(name, "/\n") {
		return nil, fmt.Errorf("cgroup: group name %q is empty or holds '/' or a newline: choose another name", name)
	}
	if limit < MinLimit {
		return nil, fmt.Errorf("%w: %d bytes is below the minimum of %d: raise the limit", ErrLimitTooLow, limit, MinLimit)
	}
	h, err := usable()
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(h.parent(), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	if h.v2 {
		for _, dir := range []string{h.mount, h.parent()} {
			if err := enableMemory(dir); err != nil {
				return nil, err
			}
		}
	}
	dir := filepath.Join(h.parent(), strconv.Itoa(os.Getpid())+"-"+name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("cgroup: %s exists already: Remove that group or choose another name", dir)
		}
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	g := &Group{h: h, dir: dir, dirFD: -1}
	if err := g.setUp(limit); err != nil {
		unix.Rmdir(dir)
		return nil, err
	}
	return g, nil
}

// setUp sets the limits of a new group and, on v2, opens its directory.
func (g *Group) setUp(limit int64) error {
	n := strconv.FormatInt(limit, 10)
	limitFile, swapFile, swapLimit := "memory.limit_in_bytes", "memory.memsw.limit_in_bytes", n
	if g.h.v2 {
		limitFile, swapFile, swapLimit = "memory.max", "memory.swap.max", "0"
	}
	if err := writeFile(g.file(limitFile), n); err != nil {
		return fmt.Errorf("cgroup: setting the limit: %w", err)
	}
	// v1 requires memsw's limit to be at least the memory limit, hence
	// the order.
	if err := writeFile(g.file(swapFile), swapLimit); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cgroup: capping swap: %w", err)
	}
	var err error
	if g.limit, err = readValue(g.file(limitFile)); err != nil {
		return err
	}
	if g.h.v2 {
		return g.openDir()
	}
	return nil
}

// openDir opens the group's directory for FD.
func (g *Group) openDir() error {
	fd, err := unix.Open(g.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("cgroup: opening %s: %w", g.dir, err)
	}
	g.dirFD = fd
	return nil
}

// file is the path of one of the group's control files.
func (g *Group) file(name string) string { return filepath.Join(g.dir, name) }

// Path is the group's directory, such as
// /sys/fs/cgroup/memory/benchmark-storage/1234-pebble.
func (g *Group) Path() string { return g.dir }

// Limit is the group's memory limit in bytes, as the kernel enforces it.
func (g *Group) Limit() int64 { return g.limit }

// Add moves the process pid, with all its threads, into the group.
// Memory the process already uses stays charged where it was; what it
// uses from now on counts against the group's limit.
func (g *Group) Add(pid int) error {
	if err := writeFile(g.file("cgroup.procs"), strconv.Itoa(pid)); err != nil {
		return fmt.Errorf("cgroup: adding process %d: %w", pid, err)
	}
	return nil
}

// FD returns a descriptor of the group's directory for starting a child
// directly in the group, so that all its memory counts from its first
// page:
//
//	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
//
// It is valid until Remove. The kernel supports this on cgroup v2 only:
// ok is false on v1 and for a group from Self, where Add after the start
// is the way.
func (g *Group) FD() (fd int, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dirFD, g.dirFD >= 0
}

// Remove removes the group once its processes have exited, waiting
// briefly while the kernel finishes tearing down an exited or killed
// process. It never kills a process: with processes still in the group
// it fails with ErrBusy. Removing a removed group does nothing. A
// process cannot remove the group it is in.
func (g *Group) Remove() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.removed {
		return nil
	}
	if g.dirFD >= 0 {
		unix.Close(g.dirFD)
		g.dirFD = -1
	}
	if g.peak != nil {
		g.peak.Close()
		g.peak = nil
	}
	deadline := time.Now().Add(removeWait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := unix.Rmdir(g.dir)
		switch {
		case err == nil || errors.Is(err, unix.ENOENT):
			g.removed = true
			return nil
		case !errors.Is(err, unix.EBUSY):
			return fmt.Errorf("cgroup: removing %s: %w", g.dir, err)
		case time.Now().After(deadline):
			procs, _ := os.ReadFile(g.file("cgroup.procs"))
			return fmt.Errorf("%w: %s holds processes %s: wait for them to exit, then Remove again", ErrBusy, g.dir, strings.Fields(string(procs)))
		}
		time.Sleep(delay)
	}
}
