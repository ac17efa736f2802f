package cgroup

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

const mib = 1 << 20

// newGroup creates a group for the test and removes it in the test's
// cleanup, after the cleanup of helpers started later has ended them.
func newGroup(t *testing.T, name string, limit int64) *Group {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
	g, err := Create(name, limit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := g.Remove(); err != nil {
			t.Error(err)
		}
	})
	return g
}

// startIn starts a helper and adds it to g.
func startIn(t *testing.T, g *Group) *helper {
	t.Helper()
	h := startHelper(t, nil)
	if err := g.Add(h.cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	return h
}

func usage(t *testing.T, g *Group) Usage {
	t.Helper()
	u, err := g.Usage()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func oomKills(t *testing.T, g *Group) int64 {
	t.Helper()
	n, err := g.OOMKills()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCreateRefusesSmallLimit(t *testing.T) {
	if _, err := Create("small", MinLimit-1); !errors.Is(err, ErrLimitTooLow) {
		t.Fatalf("Create with a limit below MinLimit: %v, want ErrLimitTooLow", err)
	}
}

func TestCreateRefusesBadName(t *testing.T) {
	for _, name := range []string{"", "a/b", "a\nb"} {
		if _, err := Create(name, MinLimit); err == nil {
			t.Errorf("Create(%q) succeeded", name)
		}
	}
}

func TestCreateLimitRemove(t *testing.T) {
	const limit = 100 * mib
	g := newGroup(t, "roundtrip", limit)
	h, err := detect()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(h.parent(), strconv.Itoa(os.Getpid())+"-roundtrip"); g.Path() != want {
		t.Errorf("Path() = %s, want %s", g.Path(), want)
	}
	if g.Limit() != limit {
		t.Errorf("Limit() = %d, want %d", g.Limit(), limit)
	}
	if u := usage(t, g); u.Limit != limit {
		t.Errorf("Usage().Limit = %d, want %d", u.Limit, limit)
	}
	if n := oomKills(t, g); n != 0 {
		t.Errorf("a new group has %d OOM kills", n)
	}
	if _, err := Create("roundtrip", limit); err == nil {
		t.Error("Create of an existing group succeeded")
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(g.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Remove: %v", err)
	}
	if err := g.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

// TestOOMKill: anonymous memory beyond the limit gets the process killed.
func TestOOMKill(t *testing.T) {
	g := newGroup(t, "oom", MinLimit)
	h := startIn(t, g)
	if reply, err := h.do("alloc 200"); err == nil {
		t.Fatalf("helper allocated 200 MiB in a group of %d MiB: %q", g.Limit()/mib, reply)
	}
	if err := h.wait(); !killedBySignal(err) {
		t.Errorf("helper ended with %v, want killed", err)
	}
	if n := oomKills(t, g); n != 1 {
		t.Errorf("OOMKills() = %d, want 1", n)
	}
}

// TestPageCacheIsReclaimed: reading a file larger than the limit fills
// the group's page cache, which the kernel reclaims instead of killing.
func TestPageCacheIsReclaimed(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	file := uncachedFile(t, 2*MinLimit)
	g := newGroup(t, "cache", MinLimit)
	h := startIn(t, g)
	h.mustDo(t, "read "+file)
	u := usage(t, g)
	t.Logf("after reading %d MiB: %+v", 2*MinLimit/mib, u)
	if u.Cache < MinLimit/4 {
		t.Errorf("Cache = %d bytes, want a good part of the %d byte limit", u.Cache, g.Limit())
	}
	if u.Current > g.Limit() || u.Peak > g.Limit() {
		t.Errorf("usage %+v beyond the limit", u)
	}
	h.mustDo(t, "free") // still alive
	if n := oomKills(t, g); n != 0 {
		t.Errorf("OOMKills() = %d, want 0", n)
	}
}

// uncachedFile writes a file of size bytes and drops it from the page
// cache, so that reading it charges the reader's group.
func uncachedFile(t *testing.T, size int) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "big")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, mib)
	for i := range chunk {
		chunk[i] = byte(i)
	}
	for written := 0; written < size; written += len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	// Only clean pages can be dropped.
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestResetPeak(t *testing.T) {
	g := newGroup(t, "peak", 256*mib)
	h := startIn(t, g)
	h.mustDo(t, "alloc 96")
	if u := usage(t, g); u.Peak < 96*mib || u.Anon < 96*mib {
		t.Errorf("after allocating 96 MiB: %+v", u)
	}
	h.mustDo(t, "free")
	if err := g.ResetPeak(); err != nil {
		t.Fatal(err)
	}
	if u := usage(t, g); u.Peak >= 32*mib {
		t.Errorf("after freeing and ResetPeak: %+v, want a peak below 32 MiB", u)
	}
	h.mustDo(t, "alloc 48")
	if u := usage(t, g); u.Peak < 48*mib || u.Peak >= 96*mib {
		t.Errorf("after allocating 48 MiB: %+v, want a peak from 48 to 96 MiB", u)
	}
}

func TestSelf(t *testing.T) {
	g := newGroup(t, "self", MinLimit)
	if own, err := Self(); own != nil || err != nil {
		t.Fatalf("Self() of the test = %v, %v, want nil", own, err)
	}
	h := startHelper(t, nil)
	var r selfReply
	if err := json.Unmarshal([]byte(h.mustDo(t, "self")), &r); err != nil || r.Path != "" {
		t.Fatalf("Self() before Add: %+v, %v", r, err)
	}
	if err := g.Add(h.cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(h.mustDo(t, "self")), &r); err != nil {
		t.Fatal(err)
	}
	if r.Path != g.Path() || r.Limit != g.Limit() || r.Current <= 0 {
		t.Errorf("Self() in %s: %+v", g.Path(), r)
	}
}

func TestRemoveStale(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	// A pid that has just exited and will not be reused for a while:
	// the kernel hands out pids in increasing order.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(gone.Process.Pid)
	live := newGroup(t, "live", MinLimit)
	h, err := detect()
	if err != nil {
		t.Fatal(err)
	}
	mkdir := func(name string) *Group {
		dir := filepath.Join(h.parent(), name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		g := &Group{h: h, dir: dir, dirFD: -1}
		t.Cleanup(func() {
			if err := g.Remove(); err != nil {
				t.Error(err)
			}
		})
		return g
	}
	stale := mkdir(dead + "-stale").Path()
	busy := mkdir(dead + "-busy")
	foreign := mkdir("foreign-" + dead).Path()
	startIn(t, busy) // its cleanup runs before the groups'

	removed, err := RemoveStale()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("removed %s", removed)
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale group %s of a dead pid is still there", stale)
	}
	for _, dir := range []string{live.Path(), busy.Path(), foreign} {
		if slices.Contains(removed, dir) {
			t.Errorf("RemoveStale removed %s", dir)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Error(err)
		}
	}
}

// TestFD starts a child directly in a group of a cgroup2 mount, with or
// without the memory controller: the part of v2 this machine may show
// even where cgroup v1 holds the memory controller.
func TestFD(t *testing.T) {
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	var h hierarchy
	ok := false
	for line := range bytes.Lines(info) {
		if h, ok = findHierarchy(line, func(string) bool { return true }); ok && h.v2 {
			break
		}
	}
	if !ok || !h.v2 {
		t.Skip("no cgroup2 mount")
	}
	if err := unix.Access(h.mount, unix.W_OK); err != nil {
		t.Skipf("%s: %v", h.mount, err)
	}
	if err := os.Mkdir(h.parent(), 0o755); err == nil {
		t.Cleanup(func() { unix.Rmdir(h.parent()) })
	} else if !errors.Is(err, os.ErrExist) {
		t.Fatal(err)
	}
	dir := filepath.Join(h.parent(), strconv.Itoa(os.Getpid())+"-fd")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	g := &Group{h: h, dir: dir, dirFD: -1}
	t.Cleanup(func() {
		if err := g.Remove(); err != nil {
			t.Error(err)
		}
	})
	if err := g.openDir(); err != nil {
		t.Fatal(err)
	}
	fd, ok := g.FD()
	if !ok {
		t.Fatal("FD() of a v2 group is not ok")
	}
	child := startHelper(t, &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd})
	text, err := os.ReadFile("/proc/" + strconv.Itoa(child.cmd.Process.Pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := cgroupPath(text, true)
	if got, _ := h.groupDir(p); !ok || got != dir {
		t.Errorf("child in %q (%s), want %s", p, got, dir)
	}
	child.in.Close()
	if err := child.wait(); err != nil {
		t.Fatal(err)
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, ok := g.FD(); ok {
		t.Error("FD() is ok after Remove")
	}
}
