package cgroup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// parentName is the directory, right under the memory controller's
// mount point, that holds every group this package creates.
const parentName = "benchmark-storage"

// hierarchy is where the memory controller is mounted.
type hierarchy struct {
	// v2 is true on the unified hierarchy, false on cgroup v1's memory
	// hierarchy.
	v2 bool
	// mount is the mount point, such as /sys/fs/cgroup/memory (v1) or
	// /sys/fs/cgroup (v2).
	mount string
	// root is the group the mount shows, as /proc/self/cgroup names it:
	// "/" unless a container mounts only its own subtree.
	root string
}

// parent is the directory holding this package's groups.
func (h hierarchy) parent() string { return filepath.Join(h.mount, parentName) }

// groupDir maps a path from /proc/self/cgroup to the directory of the
// group, if that is one of this package's groups.
func (h hierarchy) groupDir(cgroupPath string) (string, bool) {
	name, ok := strings.CutPrefix(cgroupPath, path.Join(h.root, parentName)+"/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return "", false
	}
	return filepath.Join(h.parent(), name), true
}

// Available reports whether this process can create memory groups. If
// it cannot, the error wraps ErrUnavailable and names what is missing
// and the fix. It creates nothing.
func Available() error {
	_, err := usable()
	return err
}

// usable finds the memory controller and checks that this process may
// create groups in it.
func usable() (hierarchy, error) {
	h, err := detect()
	if err != nil {
		return h, err
	}
	// access(2) answers for this process's rights and for a read-only
	// mount alike, without creating anything.
	dir := h.parent()
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		dir = h.mount
	}
	switch err := unix.Access(dir, unix.W_OK); {
	case errors.Is(err, unix.EROFS):
		return h, fmt.Errorf("%w: %s is mounted read-only: remount it read-write", ErrUnavailable, h.mount)
	case err != nil:
		return h, fmt.Errorf("%w: no permission to create groups in %s (%v): run as root", ErrUnavailable, dir, err)
	}
	if h.v2 {
		return h, v2Ready(h.mount)
	}
	return h, nil
}

// detect finds the memory controller in this process's mount table.
func detect() (hierarchy, error) {
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return hierarchy{}, fmt.Errorf("%w: %v: mount /proc", ErrUnavailable, err)
	}
	h, ok := findHierarchy(info, v2HasMemory)
	if !ok {
		return h, fmt.Errorf("%w: no memory controller is mounted: mount cgroup2 at /sys/fs/cgroup with the memory controller, or cgroup v1's with mount -t cgroup -o memory cgroup /sys/fs/cgroup/memory", ErrUnavailable)
	}
	return h, nil
}

// findHierarchy returns the first mount in mountinfo that holds the
// memory controller: a cgroup v1 mount with the "memory" option, or a
// cgroup2 mount for which hasMemory is true. The kernel binds a
// controller to one hierarchy at a time, so at most one kind matches.
func findHierarchy(mountinfo []byte, hasMemory func(mount string) bool) (hierarchy, bool) {
	for line := range bytes.Lines(mountinfo) {
		// Fields: ID, parent ID, device, root, mount point, options,
		// optional fields, "-", file system type, source, super options.
		before, after, ok := strings.Cut(strings.TrimSpace(string(line)), " - ")
		fields, typ := strings.Fields(before), strings.Fields(after)
		if !ok || len(fields) < 5 || len(typ) < 3 {
			continue
		}
		h := hierarchy{v2: typ[0] == "cgroup2", mount: fields[4], root: fields[3]}
		switch {
		case typ[0] == "cgroup" && slices.Contains(strings.Split(typ[2], ","), "memory"):
			return h, true
		case h.v2 && hasMemory(h.mount):
			return h, true
		}
	}
	return hierarchy{}, false
}

// v2HasMemory reports whether the cgroup2 mount at mount offers the
// memory controller, which it does not while cgroup v1 holds it.
func v2HasMemory(mount string) bool {
	b, err := os.ReadFile(filepath.Join(mount, "cgroup.controllers"))
	return err == nil && slices.Contains(strings.Fields(string(b)), "memory")
}

// v2Ready checks that Create can enable the memory controller for the
// children of the cgroup2 mount's top group. A group other than the
// real root (which has no cgroup.type file) can enable controllers for
// its children only while it holds no processes, which a container's
// own group often does.
func v2Ready(mount string) error {
	if subtreeHasMemory(mount) {
		return nil
	}
	if _, err := os.Stat(filepath.Join(mount, "cgroup.type")); err != nil {
		return nil
	}
	procs, err := os.ReadFile(filepath.Join(mount, "cgroup.procs"))
	if err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	if len(bytes.TrimSpace(procs)) > 0 {
		return fmt.Errorf("%w: %s holds processes, so cgroup v2 cannot enable the memory controller for its children: move them into a child group, or enable memory in its cgroup.subtree_control", ErrUnavailable, mount)
	}
	return nil
}

// subtreeHasMemory reports whether the v2 group at dir gives the memory
// controller to its children.
func subtreeHasMemory(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	return err == nil && slices.Contains(strings.Fields(string(b)), "memory")
}

// enableMemory gives the memory controller to the children of the v2
// group at dir: cgroup v2 gives a group's children only the controllers
// its cgroup.subtree_control lists.
func enableMemory(dir string) error {
	if subtreeHasMemory(dir) {
		return nil
	}
	err := writeFile(filepath.Join(dir, "cgroup.subtree_control"), "+memory")
	switch {
	case errors.Is(err, unix.EBUSY):
		return fmt.Errorf("%w: %s holds processes, so cgroup v2 cannot enable the memory controller for its children: move them into a child group", ErrUnavailable, dir)
	case err != nil:
		return fmt.Errorf("cgroup: enabling the memory controller: %w: check that %s offers memory in cgroup.controllers", err, dir)
	}
	return nil
}

// writeFile writes s to an existing control file. Each write is one
// command to the kernel, so it is a single write(2).
func writeFile(name, s string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
