package powercut

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// store is a backing directory and its current mount.
type store struct {
	t       testing.TB
	backing string
	mnt     string
	opts    Options
	fs      *FS
}

// newStore mounts a new store, and cuts it when the test ends, failed
// or not.
func newStore(t testing.TB, opts Options) *store {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
	s := &store{t: t, backing: t.TempDir(), mnt: t.TempDir(), opts: opts}
	s.mount()
	t.Cleanup(func() {
		if err := s.fs.Cut(); err != nil && !errors.Is(err, ErrClosed) {
			t.Error(err)
		}
		// The server deletes its live copy before it exits: let it, before
		// the temporary directories go.
		select {
		case <-s.fs.exited:
		case <-time.After(10 * time.Second):
			t.Error("the server did not exit after the cut")
		}
		if err := Cleanup(s.mnt); err != nil {
			t.Error(err)
		}
	})
	return s
}

func (s *store) mount() {
	s.t.Helper()
	f, err := Mount(s.mnt, s.backing, s.opts)
	if err != nil {
		s.t.Fatal(err)
	}
	s.fs = f
}

// cut cuts the power and mounts the store again.
func (s *store) cut() {
	s.t.Helper()
	if err := s.fs.Cut(); err != nil {
		s.t.Fatal(err)
	}
	s.mount()
}

func (s *store) path(name string) string { return filepath.Join(s.mnt, name) }

// pattern is n bytes that differ with seed.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) + seed
	}
	return b
}

// writeFile writes data to path, replacing what was there, and fsyncs
// the file if sync.
func writeFile(t testing.TB, path string, data []byte, sync bool) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func syncDir(t testing.TB, dir string) {
	t.Helper()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
}

// wantFile fails the test unless path holds want.
func wantFile(t testing.TB, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s holds %d bytes %.16q…, want %d bytes %.16q…", filepath.Base(path), len(got), got, len(want), want)
	}
}

// wantGone fails the test unless nothing is at path.
func wantGone(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s: got %v, want it gone", filepath.Base(path), err)
	}
}

// fsyncSurvives writes and fsyncs a file and its directory, cuts, and
// says what is wrong with the file after the cut.
func fsyncSurvives(t *testing.T, opts Options) error {
	s := newStore(t, opts)
	want := pattern(10000, 1)
	writeFile(t, s.path("f"), want, true)
	syncDir(t, s.mnt)
	s.cut()
	got, err := os.ReadFile(s.path("f"))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("f holds %d bytes, want the %d synced", len(got), len(want))
	}
	return nil
}

func TestFsyncSurvivesCut(t *testing.T) {
	if err := fsyncSurvives(t, Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestNoopFsyncFailsCheck is a mutation test: with fsync made a no-op,
// the check of TestFsyncSurvivesCut must fail.
func TestNoopFsyncFailsCheck(t *testing.T) {
	err := fsyncSurvives(t, Options{NoopSync: true})
	if err == nil {
		t.Fatal("the fsync check passed with fsync a no-op")
	}
	t.Logf("the check fails as it should: %v", err)
}

func TestUnsyncedWriteLost(t *testing.T) {
	s := newStore(t, Options{})
	synced := pattern(10000, 1)
	writeFile(t, s.path("f"), synced, true)
	syncDir(t, s.mnt)

	f, err := os.OpenFile(s.path("f"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	unsynced := pattern(12000, 2) // overwrites and appends
	if _, err := f.WriteAt(unsynced, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	wantFile(t, s.path("f"), unsynced) // reads see pending writes
	s.cut()
	wantFile(t, s.path("f"), synced)
}

// TestSyncThroughAnyHandle syncs a file through a handle that did not
// write: the file's pending writes become durable all the same.
func TestSyncThroughAnyHandle(t *testing.T) {
	s := newStore(t, Options{})
	writeFile(t, s.path("f"), nil, true)
	syncDir(t, s.mnt)
	w, err := os.OpenFile(s.path("f"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	want := pattern(5000, 3)
	if _, err := w.Write(want); err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(s.path("f"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Sync(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r.Close()
	s.cut()
	wantFile(t, s.path("f"), want)
}

// TestCreateNeedsDirSync: a file's fsync makes its data durable, not its
// name; the name becomes durable with its directory's fsync, and then
// names the data as of the file's last fsync.
func TestCreateNeedsDirSync(t *testing.T) {
	s := newStore(t, Options{})
	writeFile(t, s.path("f"), pattern(100, 1), true)
	s.cut()
	wantGone(t, s.path("f"))

	synced := pattern(100, 2)
	writeFile(t, s.path("g"), synced, true)
	f, err := os.OpenFile(s.path("g"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(pattern(50, 3), 0); err != nil { // pending
		t.Fatal(err)
	}
	f.Close()
	syncDir(t, s.mnt)
	s.cut()
	wantFile(t, s.path("g"), synced)
}

// TestJournalCommitsNames: with Journal, a file's fsync makes every
// pending name durable, its own and others', in order (a directory made
// and a file renamed), but not another file's unsynced data.
func TestJournalCommitsNames(t *testing.T) {
	s := newStore(t, Options{Journal: true})
	if err := os.Mkdir(s.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.path("d/other"), pattern(100, 1), false)
	writeFile(t, s.path("d/tmp"), pattern(100, 2), true)
	if err := os.Rename(s.path("d/tmp"), s.path("d/f")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.path("g"), pattern(10, 3), true) // commits the names above
	writeFile(t, s.path("late"), pattern(10, 4), false)
	s.cut()
	wantFile(t, s.path("d/f"), pattern(100, 2))
	wantFile(t, s.path("d/other"), nil)
	wantFile(t, s.path("g"), pattern(10, 3))
	wantGone(t, s.path("d/tmp"))
	wantGone(t, s.path("late"))
}

func TestMkdirNeedsParentSync(t *testing.T) {
	s := newStore(t, Options{})
	if err := os.Mkdir(s.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := pattern(100, 1)
	writeFile(t, s.path("d/f"), want, true)
	syncDir(t, s.path("d"))
	s.cut()
	wantGone(t, s.path("d"))

	if err := os.Mkdir(s.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.path("d/f"), want, true)
	syncDir(t, s.path("d"))
	syncDir(t, s.mnt)
	s.cut()
	wantFile(t, s.path("d/f"), want)
}

func TestRenameNeedsDirSync(t *testing.T) {
	s := newStore(t, Options{})
	want := pattern(100, 1)
	writeFile(t, s.path("old"), want, true)
	syncDir(t, s.mnt)

	if err := os.Rename(s.path("old"), s.path("new")); err != nil {
		t.Fatal(err)
	}
	s.cut()
	wantFile(t, s.path("old"), want)
	wantGone(t, s.path("new"))

	if err := os.Rename(s.path("old"), s.path("new")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, s.mnt)
	s.cut()
	wantGone(t, s.path("old"))
	wantFile(t, s.path("new"), want)
}

// TestRenameReplacesAtomically is the pattern of a CURRENT or MANIFEST
// file: write a temporary, fsync it, rename it over the old one, fsync
// the directory.
func TestRenameReplacesAtomically(t *testing.T) {
	s := newStore(t, Options{})
	v1, v2 := pattern(100, 1), pattern(80, 2)
	writeFile(t, s.path("CURRENT"), v1, true)
	syncDir(t, s.mnt)
	writeFile(t, s.path("CURRENT.tmp"), v2, true)
	if err := os.Rename(s.path("CURRENT.tmp"), s.path("CURRENT")); err != nil {
		t.Fatal(err)
	}
	s.cut()
	wantFile(t, s.path("CURRENT"), v1)
	wantGone(t, s.path("CURRENT.tmp"))

	writeFile(t, s.path("CURRENT.tmp"), v2, true)
	if err := os.Rename(s.path("CURRENT.tmp"), s.path("CURRENT")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, s.mnt)
	s.cut()
	wantFile(t, s.path("CURRENT"), v2)
	wantGone(t, s.path("CURRENT.tmp"))
}

// TestCrossDirRename: a rename between two directories becomes durable
// when both have been fsynced since, and then on both sides at once.
func TestCrossDirRename(t *testing.T) {
	s := newStore(t, Options{})
	for _, d := range []string{"a", "b"} {
		if err := os.Mkdir(s.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := pattern(100, 1)
	writeFile(t, s.path("a/f"), want, true)
	syncDir(t, s.path("a"))
	syncDir(t, s.mnt)

	for _, synced := range [][]string{{"a"}, {"b"}} {
		if err := os.Rename(s.path("a/f"), s.path("b/f")); err != nil {
			t.Fatal(err)
		}
		for _, d := range synced {
			syncDir(t, s.path(d))
		}
		s.cut()
		wantFile(t, s.path("a/f"), want)
		wantGone(t, s.path("b/f"))
	}

	if err := os.Rename(s.path("a/f"), s.path("b/f")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, s.path("a"))
	syncDir(t, s.path("b"))
	s.cut()
	wantGone(t, s.path("a/f"))
	wantFile(t, s.path("b/f"), want)
}

func TestUnlinkNeedsDirSync(t *testing.T) {
	s := newStore(t, Options{})
	want := pattern(100, 1)
	writeFile(t, s.path("f"), want, true)
	syncDir(t, s.mnt)

	if err := os.Remove(s.path("f")); err != nil {
		t.Fatal(err)
	}
	wantGone(t, s.path("f"))
	s.cut()
	wantFile(t, s.path("f"), want)

	if err := os.Remove(s.path("f")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, s.mnt)
	s.cut()
	wantGone(t, s.path("f"))
}

// TestSyncUnlinkedFile fsyncs a file through a handle after unlinking
// it: the unlink is pending, so after a cut the file is back with the
// synced data.
func TestSyncUnlinkedFile(t *testing.T) {
	s := newStore(t, Options{})
	writeFile(t, s.path("f"), pattern(100, 1), true)
	syncDir(t, s.mnt)
	f, err := os.OpenFile(s.path("f"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Remove(s.path("f")); err != nil {
		t.Fatal(err)
	}
	want := pattern(200, 2)
	if _, err := f.WriteAt(want, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s.cut()
	wantFile(t, s.path("f"), want)
}

// TestRmdirNeedsParentSync: fsync of the parent makes an rmdir durable,
// and with it the unlinks that emptied the directory.
func TestRmdirNeedsParentSync(t *testing.T) {
	s := newStore(t, Options{})
	if err := os.Mkdir(s.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := pattern(100, 1)
	writeFile(t, s.path("d/f"), want, true)
	syncDir(t, s.path("d"))
	syncDir(t, s.mnt)

	if err := os.RemoveAll(s.path("d")); err != nil {
		t.Fatal(err)
	}
	s.cut()
	wantFile(t, s.path("d/f"), want)

	if err := os.RemoveAll(s.path("d")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, s.mnt)
	s.cut()
	wantGone(t, s.path("d"))
}

func TestLinkNeedsDirSync(t *testing.T) {
	s := newStore(t, Options{})
	want := pattern(100, 1)
	writeFile(t, s.path("f"), want, true)
	syncDir(t, s.mnt)
	if err := os.Link(s.path("f"), s.path("g")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", s.path("s")); err != nil {
		t.Fatal(err)
	}
	s.cut()
	wantGone(t, s.path("g"))
	wantGone(t, s.path("s"))

	if err := os.Link(s.path("f"), s.path("g")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", s.path("s")); err != nil {
		t.Fatal(err)
	}
	syncDir(t, s.mnt)
	s.cut()
	wantFile(t, s.path("g"), want)
	wantFile(t, s.path("s"), want)
	// g is f: a synced write through one shows through the other.
	more := pattern(300, 2)
	writeFile(t, s.path("g"), more, true)
	s.cut()
	wantFile(t, s.path("f"), more)
}

func TestTruncatePending(t *testing.T) {
	s := newStore(t, Options{})
	want := pattern(8192, 1)
	writeFile(t, s.path("f"), want, true)
	syncDir(t, s.mnt)

	if err := os.Truncate(s.path("f"), 100); err != nil {
		t.Fatal(err)
	}
	wantFile(t, s.path("f"), want[:100])
	s.cut()
	wantFile(t, s.path("f"), want)

	// Shrink and regrow, then fsync: the regrown part is zeros.
	f, err := os.OpenFile(s.path("f"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int64{100, 8192} {
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s.cut()
	wantFile(t, s.path("f"), append(want[:100:100], make([]byte, 8192-100)...))
}

// TestUnmountMakesEverythingDurable: a clean unmount is a clean shutdown.
func TestUnmountMakesEverythingDurable(t *testing.T) {
	s := newStore(t, Options{})
	if err := os.Mkdir(s.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	f1, f2 := pattern(5000, 1), pattern(3000, 2)
	writeFile(t, s.path("d/f1"), f1, false)
	writeFile(t, s.path("f2"), f2, false)
	if err := os.Rename(s.path("f2"), s.path("d/f2")); err != nil {
		t.Fatal(err)
	}
	if err := s.fs.Unmount(); err != nil {
		t.Fatal(err)
	}
	s.mount()
	wantFile(t, s.path("d/f1"), f1)
	wantFile(t, s.path("d/f2"), f2)
	wantGone(t, s.path("f2"))
}

func TestBusy(t *testing.T) {
	s := newStore(t, Options{})
	if _, err := Mount(t.TempDir(), s.backing, Options{}); !errors.Is(err, ErrBusy) {
		t.Errorf("second mount of a store: got %v, want ErrBusy", err)
	}
	f, err := os.Create(s.path("f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := s.fs.Unmount(); !errors.Is(err, ErrBusy) {
		t.Errorf("unmount with a file open: got %v, want ErrBusy", err)
	}
	f.Close()
	if err := s.fs.Unmount(); err != nil {
		t.Fatal(err)
	}
	if err := s.fs.Cut(); !errors.Is(err, ErrClosed) {
		t.Errorf("cut after unmount: got %v, want ErrClosed", err)
	}
}

func TestNotStore(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	backing := t.TempDir()
	writeFile(t, filepath.Join(backing, "mine"), nil, false)
	if _, err := Mount(t.TempDir(), backing, Options{}); !errors.Is(err, ErrNotStore) {
		t.Fatalf("got %v, want ErrNotStore", err)
	}
}

// TestOpenAcrossCut: a file open at the cut keeps working, but nothing
// done through it reaches the store.
func TestOpenAcrossCut(t *testing.T) {
	s := newStore(t, Options{})
	want := pattern(100, 1)
	writeFile(t, s.path("f"), want, true)
	syncDir(t, s.mnt)
	f, err := os.OpenFile(s.path("f"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s.cut()
	if _, err := f.WriteAt(pattern(100, 2), 0); err != nil {
		t.Errorf("write after the cut: %v", err)
	}
	if err := f.Sync(); err != nil {
		t.Errorf("fsync after the cut: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
	wantFile(t, s.path("f"), want)
}

func TestPunchHolePending(t *testing.T) {
	s := newStore(t, Options{})
	want := pattern(4*blockSize, 1)
	writeFile(t, s.path("f"), want, true)
	syncDir(t, s.mnt)
	f, err := os.OpenFile(s.path("f"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	punch := func() {
		t.Helper()
		if err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, blockSize, blockSize); err != nil {
			if errors.Is(err, unix.EOPNOTSUPP) {
				t.Skipf("the backing file system cannot punch holes: %v", err)
			}
			t.Fatal(err)
		}
	}
	punched := bytes.Clone(want)
	clear(punched[blockSize : 2*blockSize])

	punch()
	f.Close()
	wantFile(t, s.path("f"), punched)
	s.cut()
	wantFile(t, s.path("f"), want)

	if f, err = os.OpenFile(s.path("f"), os.O_RDWR, 0); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	punch()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s.cut()
	wantFile(t, s.path("f"), punched)
}
