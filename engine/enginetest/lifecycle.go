package enginetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/inject"
)

func testPersistence(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	big := string(randomBytes(3, 1<<20))
	putAll(t, db, "a", "b", "c", "d", "e", "f", "\x00", "\xff")
	put(t, db, "big", big)
	put(t, db, "blank", "")
	b := db.NewBatch()
	b.Put([]byte("batch1"), []byte("1"))
	b.Put([]byte("batch2"), []byte("2"))
	b.Delete([]byte("a"))
	commit(t, b)
	b.Close()
	del(t, db, "b")
	deleteRange(t, db, "d", "f")
	put(t, db, "c", "overwritten")
	want := []kv{
		{"\x00", "v\x00"}, {"batch1", "1"}, {"batch2", "2"}, {"big", big},
		{"blank", ""}, {"c", "overwritten"}, {"f", "vf"}, {"\xff", "v\xff"},
	}
	wantScan(t, db, nil, nil, want)

	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, want)
	wantGet(t, db, "big", big)
	wantMissing(t, db, "a")
	wantMissing(t, db, "e")

	// Writes after a reopen persist too.
	put(t, db, "g", "after reopen")
	deleteRange(t, db, "batch1", "big")
	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, []kv{
		{"\x00", "v\x00"}, {"big", big}, {"blank", ""}, {"c", "overwritten"},
		{"f", "vf"}, {"g", "after reopen"}, {"\xff", "v\xff"},
	})
}

func testUseAfterClose(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	put(t, db, "a", "1")
	early := db.NewBatch() // made before Close, committed after
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	k := []byte("a")
	late := db.NewBatch()
	late.Put(k, k)
	early.Put(k, k)
	for _, c := range engineCalls(db, k, late, early, "Batch made before Close: Commit") {
		if err := c.call(); !errors.Is(err, engine.ErrClosed) {
			t.Errorf("%s after Close = %v, want an error wrapping engine.ErrClosed", c.name, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Errorf("Close again = %v, want nil: a second Close does nothing, as database/sql's DB.Close", err)
	}
	late.Close()
	early.Close()

	db = mustOpen(t, open, dir)
	wantScan(t, db, nil, nil, []kv{{"a", "1"}})
}

// testBroken makes the backend's next call fail with an error wrapping
// engine.ErrBroken (inject.Broken, as a backend that cannot go on
// would return it): that call and every later one, on the engine, a batch
// or a snapshot made before or after, must fail with that same error
// without reaching the backend, until Close, which must still close it
// and free the directory, whose data is intact.
func testBroken(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	want := putAll(t, db, "a", "b")
	early := newBatch(t, db) // made before the failure, committed after
	early.Put([]byte("c"), []byte("vc"))
	s, err := engine.NewSnapshot(db)
	if err != nil {
		t.Fatalf("NewSnapshot: %v", err)
	}
	injected := fmt.Errorf("%w: enginetest: injected failure", engine.ErrBroken)
	if err := inject.Broken(db, injected); err != nil {
		t.Fatalf("InjectBroken: %v", err)
	}
	if err := db.Put([]byte("c"), []byte("vc")); err != injected {
		t.Fatalf("Put failing with an injected error wrapping engine.ErrBroken = %v, want that error", err)
	}
	k := []byte("a")
	late := db.NewBatch()
	defer late.Close()
	late.Put(k, k)
	cp := filepath.Join(t.TempDir(), "checkpoint")
	calls := append(engineCalls(db, k, late, early, "Batch made before: Commit"), []namedCall{
		{"NewSnapshot", func() error { _, err := engine.NewSnapshot(db); return err }},
		{"Snapshot made before: Get", func() error { _, err := s.Get(k); return err }},
		{"Snapshot made before: NewIterator", func() error { _, err := s.NewIterator(engine.IterOptions{}); return err }},
		{"Checkpoint", func() error { return engine.Checkpoint(db, cp) }},
		{"EstimateSize", func() error { _, err := engine.EstimateSize(db, nil, nil); return err }},
		{"ReadMetrics", func() error { _, err := engine.ReadMetrics(db); return err }},
		{"Check", func() error { return engine.Check(db) }},
	}...)
	if f, ok := db.(engine.Flusher); ok {
		calls = append(calls, namedCall{"Flush", f.Flush})
	}
	if b, ok := db.(engine.Backgrounder); ok {
		calls = append(calls, namedCall{"Busy", func() error { _, err := b.Busy(); return err }})
	}
	for _, c := range calls {
		if err := c.call(); err != injected {
			t.Errorf("%s after a call failed with engine.ErrBroken = %v, want that same error", c.name, err)
		}
	}
	if _, err := os.Lstat(cp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused Checkpoint left %s (%v)", cp, err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Snapshot.Close after the engine broke: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("Close after the engine broke: %v", err)
	}
	if _, err := db.Get(k); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("Get after Close of a broken engine = %v, want engine.ErrClosed", err)
	}
	db = mustOpen(t, open, dir)
	wantScan(t, db, nil, nil, want)
	put(t, db, "c", "vc")
	wantGet(t, db, "c", "vc")
}

func testCloseWithOpenIterator(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	putAll(t, db, "a")
	it := newIter(t, db, nil, nil)
	if err := db.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("Close with an open iterator = %v, want an error wrapping engine.ErrOpenIterators", err)
	}
	// Everything still works, the iterator included.
	wantAt(t, it, "First on the iterator", it.First(), "a")
	put(t, db, "b", "vb")
	wantGet(t, db, "b", "vb")
	closeIter(t, it)
	if err := db.Close(); err != nil {
		t.Fatalf("Close after closing the iterator: %v", err)
	}
	db = mustOpen(t, open, dir)
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"b", "vb"}})
}

func testIteratorAfterClose(t *testing.T, db engine.Engine) {
	putAll(t, db, "a", "b")
	it := newIter(t, db, nil, nil)
	wantAt(t, it, "First", it.First(), "a")
	closeIter(t, it)
	wantMoves(t, it, "after Iterator.Close", "First= Last= Seek(a)= Next= Prev=")
	it.Key() // must not crash
	it.Value()
	if err := it.Close(); err != nil {
		t.Fatalf("second Iterator.Close = %v, want nil (io.Closer's convention)", err)
	}
	if err := it.Err(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("Err after Iterator.Close = %v, want an error wrapping engine.ErrClosed", err)
	}
	// The second Close must not have uncounted another iterator.
	other := newIter(t, db, nil, nil)
	if err := db.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("Close with one open iterator, after closing another twice = %v, want engine.ErrOpenIterators", err)
	}
	closeIter(t, other)
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// markerFile is the name engine.Open uses to record which engine owns a
// directory.
const markerFile = "ENGINE"

func testWrongEngine(t *testing.T, open Factory, dir string) {
	marker := filepath.Join(dir, markerFile)
	if err := os.WriteFile(marker, []byte("some-other-engine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := safeOpen(t, open, dir); !errors.Is(err, engine.ErrWrongEngine) {
		t.Fatalf("open a directory marked as some-other-engine's = %v, want an error wrapping engine.ErrWrongEngine", err)
	}
	if b, err := os.ReadFile(marker); err != nil || string(b) != "some-other-engine\n" {
		t.Fatalf("marker after a refused open = %q, %v; want it untouched", b, err)
	}
}

func testUnwritableDir(t *testing.T, open Factory, dir string) {
	t.Run("under a regular file", func(t *testing.T) {
		file := filepath.Join(dir, "file")
		if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := safeOpen(t, open, filepath.Join(file, "db")); err == nil {
			t.Fatalf("open a path under a regular file succeeded, want an error")
		}
	})
	t.Run("read-only", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root ignores directory permissions")
		}
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(ro, 0o700) // let t.TempDir clean up
		if err := safeOpen(t, open, ro); err == nil {
			t.Fatalf("open a read-only directory succeeded, want an error")
		}
	})
}

// holdEnv names the directory a child test process opens and holds for
// the OtherProcess check; holding is what Run does in such a child.
const (
	holdEnv   = "ENGINETEST_HOLD_DIR"
	holdReady = "enginetest: holding"
)

// testLockedInProcess opens a directory twice in one process: the second
// open must fail with engine.ErrLocked and leave the first working.
func testLockedInProcess(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	put(t, db, "a", "1")
	if err := safeOpen(t, open, dir); !errors.Is(err, engine.ErrLocked) {
		t.Fatalf("a second open of a directory open in this process = %v, want an error wrapping engine.ErrLocked", err)
	}
	put(t, db, "b", "2")
	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, []kv{{"a", "1"}, {"b", "2"}})
}

// child returns a command that runs this test binary again, on the
// top-level test alone, with the environment variable env set to dir:
// Run does in that process what env says instead of the suite. The
// command's stderr goes to the buffer.
func child(t *testing.T, env, dir string) (*exec.Cmd, *bytes.Buffer) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary to run a second process: %v", err)
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	cmd := exec.Command(exe, "-test.run=^"+regexp.QuoteMeta(top)+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+dir)
	stderr := new(bytes.Buffer)
	cmd.Stderr = stderr
	return cmd, stderr
}

// testLockedOtherProcess runs this test binary again to open a directory
// and hold it: an open here must fail with engine.ErrLocked until the
// child closes it.
func testLockedOtherProcess(t *testing.T, open Factory, dir string) {
	cmd, stderr := child(t, holdEnv, dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The reader reports whether the child said it holds dir, with its
	// output otherwise, and drains the rest; Wait must come after it ends.
	ready, drained := make(chan bool, 1), make(chan struct{})
	var out strings.Builder
	go func() {
		defer close(drained)
		found := false
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			switch {
			case found:
			case sc.Text() == holdReady:
				found = true
				ready <- true
			default:
				fmt.Fprintln(&out, sc.Text())
			}
		}
		if !found {
			ready <- false
		}
	}()
	wait := func() error {
		stdin.Close() // the child closes the engine and exits
		<-drained
		return cmd.Wait()
	}
	select {
	case ok := <-ready:
		if !ok {
			wait()
			t.Fatalf("the child process did not open %s:\n%s%s", dir, out.String(), stderr.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		wait()
		t.Fatalf("the child process did not open %s within a minute:\n%s", dir, stderr.String())
	}
	lockedErr := safeOpen(t, open, dir)
	if err := wait(); err != nil {
		t.Fatalf("child process: %v\n%s", err, stderr.String())
	}
	if !errors.Is(lockedErr, engine.ErrLocked) {
		t.Fatalf("open of a directory another process holds = %v, want an error wrapping engine.ErrLocked", lockedErr)
	}
	mustOpen(t, open, dir) // free again
}

// hold is Run in the child of testLockedOtherProcess: it opens dir, says
// so on stdout, and closes the engine when stdin closes.
func hold(t *testing.T, open Factory, dir string) {
	db, err := open(t, dir)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	defer db.Close()
	fmt.Println(holdReady)
	bufio.NewReader(os.Stdin).ReadString(0)
}

// crashEnv names the directory a child test process writes to until it
// is killed, for ReopenAfterKill; writing is what Run does in such a
// child. crashAck starts each line it prints for a batch it committed.
const (
	crashEnv = "ENGINETEST_CRASH_DIR"
	crashAck = "enginetest: committed "
)

// crashBatch is the number of entries of each batch the child commits.
const crashBatch = 10

// testReopenAfterKill runs this test binary again to commit numbered
// batches in dir, with the Factory's options, and print each one it
// committed; once it printed some it is killed with SIGKILL, as a crash
// of the process. Reopened, the store must hold every batch the child
// reported whole, and no batch partly. This is what the profile "none"
// promises, and "batch" more so.
func testReopenAfterKill(t *testing.T, open Factory, dir string) {
	cmd, stderr := child(t, crashEnv, dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	kill, waitGone := adoptOrphans()
	if err := cmd.Start(); err != nil {
		waitGone()
		t.Fatal(err)
	}
	// acks carries the number of each batch the child reported; it is
	// closed when the child's output ends.
	acks := make(chan int, 1024)
	go func() {
		defer close(acks)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), crashAck); ok {
				if b, err := strconv.Atoi(n); err == nil {
					acks <- b
				}
			}
		}
	}()
	acked, deadline := -1, time.After(time.Minute)
wait:
	for acked < 50 {
		select {
		case b, ok := <-acks:
			if !ok {
				break wait
			}
			acked = b
		case <-deadline:
			break wait
		}
	}
	kill(cmd.Process)
	for b := range acks { // what the child printed before it died
		acked = b
	}
	cmd.Wait()
	waitGone()
	if acked < 0 {
		t.Fatalf("the child process committed no batch:\n%s", stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) <= 1 {
		t.Skip("the engine keeps nothing in its directory but the marker, so a process kill loses all")
	}
	db := mustOpen(t, open, dir)
	count := map[int]int{}
	for _, e := range scan(t, db, nil, nil, false) {
		var b, i int
		if _, err := fmt.Sscanf(e.k, "k/%06d/%02d", &b, &i); err != nil || e.v != fmt.Sprintf("%d.%d", b, i) {
			t.Fatalf("unexpected entry %v", e)
		}
		count[b]++
	}
	for b := 0; b <= acked; b++ {
		if count[b] != crashBatch {
			t.Errorf("batch %d, committed before the kill, has %d of its %d entries after a reopen", b, count[b], crashBatch)
		}
	}
	for b, n := range count {
		if n != crashBatch {
			t.Errorf("batch %d is torn: %d of its %d entries", b, n, crashBatch)
		}
	}
}

// crashWrite is Run in the child of testReopenAfterKill: it commits
// batches in dir and prints the number of each, until it is killed.
func crashWrite(t *testing.T, open Factory, dir string) {
	db, err := open(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	for n := 0; n < 1_000_000; n++ {
		for i := range crashBatch {
			b.Put(fmt.Appendf(nil, "k/%06d/%02d", n, i), fmt.Appendf(nil, "%d.%d", n, i))
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s%d\n", crashAck, n)
	}
	time.Sleep(time.Hour) // killed by the parent
}

// testCorrupt overwrites every file of a closed engine with garbage (its
// first MiB). Opening it, or failing that reading it, must fail with an
// error wrapping engine.ErrCorrupt, and never crash or return what is not
// there.
func testCorrupt(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	b := newBatch(t, db)
	for i := range 1000 {
		b.Put(fmt.Appendf(nil, "c/%04d", i), randomBytes(uint64(i), 1<<10))
	}
	commit(t, b)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || path == filepath.Join(dir, markerFile) {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		// The first MiB is enough to spoil headers, manifests and logs;
		// a large preallocated file (LMDB's map) is not rewritten whole.
		_, err = f.WriteAt(randomBytes(uint64(files), int(min(info.Size(), 1<<20))), 0)
		return errors.Join(err, f.Close())
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Skip("the engine keeps no files in its directory")
	}
	var db2 engine.Engine
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("open of corrupted files panicked: %v", r)
			}
		}()
		db2, err = open(t, dir)
	}()
	if err != nil {
		if !errors.Is(err, engine.ErrCorrupt) {
			t.Fatalf("open of corrupted files = %v, want an error wrapping engine.ErrCorrupt", err)
		}
		return
	}
	defer db2.Close()
	got, err := scanAll(db2)
	if !errors.Is(err, engine.ErrCorrupt) {
		t.Fatalf("the engine opened its %d corrupted files, and a scan finds %d entries with error %v; want an error wrapping engine.ErrCorrupt from open or read", files, len(got), err)
	}
}

// namedCall is a call on an engine, named in a test's messages.
type namedCall struct {
	name string
	call func() error
}

// engineCalls are the calls of db that an engine closed or broken must
// refuse, on key k: late is a batch made afterwards, early one made
// before, whose Commit is named commitEarly.
func engineCalls(db engine.Engine, k []byte, late, early engine.Batch, commitEarly string) []namedCall {
	return []namedCall{
		{"Get", func() error { _, err := db.Get(k); return err }},
		{"Put", func() error { return db.Put(k, k) }},
		{"Delete", func() error { return db.Delete(k) }},
		{"DeleteRange", func() error { return db.DeleteRange(k, []byte("b")) }},
		{"NewIterator", func() error { _, err := db.NewIterator(engine.IterOptions{}); return err }},
		{"NewBatch().Commit", late.Commit},
		{commitEarly, early.Commit},
		{"Compact", func() error { return db.Compact(nil, nil) }},
	}
}
