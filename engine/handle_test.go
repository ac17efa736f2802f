package engine_test

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// Drivers whose backends have Flush, Busy, both, or a Get that waits.
func init() {
	engine.Register("testflush", engine.Driver{Open: func(string, engine.Options) (engine.Backend, error) {
		return flushing{memory.New()}, nil
	}})
	engine.Register("testbusy", engine.Driver{Open: func(string, engine.Options) (engine.Backend, error) {
		return busying{memory.New()}, nil
	}})
	engine.Register("testboth", engine.Driver{Open: func(string, engine.Options) (engine.Backend, error) {
		return both{flushing{memory.New()}}, nil
	}})
	engine.Register("testslow", engine.Driver{Open: func(string, engine.Options) (engine.Backend, error) {
		return slowGet, nil
	}})
}

type flushing struct{ *memory.DB }

func (flushing) Flush() error { return nil }

type busying struct{ *memory.DB }

func (busying) Busy() (bool, error) { return false, nil }

type both struct{ flushing }

func (both) Busy() (bool, error) { return false, nil }

// Open's engine has Flush and Busy exactly when the backend does, since
// callers fall back to something else without them.
func TestOptionalInterfacesFollowBackend(t *testing.T) {
	for name, want := range map[string][2]bool{
		"testmem": {false, false}, "testflush": {true, false}, "testbusy": {false, true}, "testboth": {true, true},
	} {
		db, err := engine.Open(name, t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		f, isF := db.(engine.Flusher)
		b, isB := db.(engine.Backgrounder)
		if isF != want[0] || isB != want[1] {
			t.Errorf("%s: Flusher %v, Backgrounder %v; want %v, %v", name, isF, isB, want[0], want[1])
		}
		if _, ok := db.(engine.Snapshotter); !ok {
			t.Errorf("%s: not a Snapshotter", name)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if isF {
			if err := f.Flush(); !errors.Is(err, engine.ErrClosed) {
				t.Errorf("%s: Flush after Close = %v, want ErrClosed", name, err)
			}
		}
		if isB {
			if _, err := b.Busy(); !errors.Is(err, engine.ErrClosed) {
				t.Errorf("%s: Busy after Close = %v, want ErrClosed", name, err)
			}
		}
	}
}

// slowGet's Get waits for release, so that Close can be called while it
// is in flight; closed records whether the backend's Close ran too soon.
var slowGet = &slowEngine{DB: memory.New(), entered: make(chan struct{}), release: make(chan struct{})}

type slowEngine struct {
	*memory.DB
	entered, release chan struct{}
	getting          atomic.Bool
	closedEarly      atomic.Bool
}

func (s *slowEngine) Get(key []byte) ([]byte, error) {
	s.getting.Store(true)
	close(s.entered)
	<-s.release
	s.getting.Store(false)
	return nil, engine.ErrNotFound
}

func (s *slowEngine) Close() error {
	s.closedEarly.Store(s.getting.Load())
	return s.DB.Close()
}

func TestCloseWaitsForCallsInFlight(t *testing.T) {
	db, err := engine.Open("testslow", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error)
	go func() {
		_, err := db.Get([]byte("k"))
		got <- err
	}()
	<-slowGet.entered
	closed := make(chan error)
	go func() { closed <- db.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a Get was in flight", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(slowGet.release)
	if err := <-got; !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("Get = %v", err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if slowGet.closedEarly.Load() {
		t.Fatal("the backend's Close ran while its Get was in flight")
	}
}

func TestOpenLocked(t *testing.T) {
	dir := t.TempDir()
	db, err := engine.Open("testmem", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Open("testmem", dir, nil); !errors.Is(err, engine.ErrLocked) {
		t.Fatalf("second Open of a directory = %v, want ErrLocked", err)
	}
	// A failed Open must not release the first one's lock, and the error
	// names the engine that holds the directory, not the one asked for.
	if _, err := engine.Open("testplain", dir, nil); !errors.Is(err, engine.ErrLocked) || !strings.Contains(err.Error(), "open as testmem") {
		t.Fatalf("third Open of a directory, by another engine = %v, want ErrLocked naming testmem", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = engine.Open("testmem", dir, nil)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	db.Close()
}

// TestReopenWhileStartingProcesses closes and reopens a directory while
// other goroutines start processes: a child holds a copy of the marker's
// descriptor from its fork to its exec, and with it the lock, which must
// not make the reopen fail as if the directory were still in use.
func TestReopenWhileStartingProcesses(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				exec.Command("/bin/true").Run()
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	dir := t.TempDir()
	for i := range 2000 {
		db, err := engine.Open("testmem", dir, nil)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCheckKey(t *testing.T) {
	l := engine.Limits{MinKeySize: 1, MaxKeySize: 4, ReservedPrefixes: []string{"!r"}}
	for key, want := range map[string]error{
		"": engine.ErrKeyNotSupported, "a": nil, "abcd": nil, "abcde": engine.ErrTooLarge,
		"!r": engine.ErrKeyNotSupported, "!rx": engine.ErrKeyNotSupported, "!": nil, "x!r": nil,
	} {
		if err := l.CheckKey([]byte(key)); !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("CheckKey(%q) = %v, want %v", key, err, want)
		}
	}
	if err := (engine.Limits{}).CheckKey(nil); err != nil {
		t.Errorf("zero Limits refuse the empty key: %v", err)
	}
	if l := engine.LimitsOf(memory.New()); l.MaxKeySize != 0 || l.MinKeySize != 0 {
		t.Errorf("LimitsOf an engine that does not say = %+v, want zero", l)
	}
}

func TestCheckpointNeedsOpen(t *testing.T) {
	err := engine.Checkpoint(memory.New(), t.TempDir()+"/cp")
	if !errors.Is(err, engine.ErrNotSupported) {
		t.Fatalf("Checkpoint of memory.New() = %v, want ErrNotSupported", err)
	}
}

// refusing is an engine whose Commit refuses a batch of more than max
// puts, as etcd refuses large transactions.
type refusing struct {
	*memory.DB
	max int
}

func (r refusing) NewBatch() engine.Batch {
	return refusingBatch{r.DB.NewBatch(), r.max}
}

type refusingBatch struct {
	engine.Batch
	max int
}

func (b refusingBatch) Commit() error {
	if b.Len() > b.max {
		return fmt.Errorf("%w: %d puts", engine.ErrTooLarge, b.Len())
	}
	return b.Batch.Commit()
}

func TestCopyHalvesRefusedBatches(t *testing.T) {
	src := memory.New()
	for i := range 100 {
		src.Put(fmt.Appendf(nil, "k%03d", i), make([]byte, 100_000)) // 10 MB: more than one batch
	}
	dst := refusing{memory.New(), 7}
	if err := engine.Copy(dst, src); err != nil {
		t.Fatalf("Copy into an engine refusing batches of more than 7: %v", err)
	}
	it, _ := dst.NewIterator(engine.IterOptions{})
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if want := fmt.Sprintf("k%03d", n); string(it.Key()) != want || len(it.Value()) != 100_000 {
			t.Fatalf("entry %d: %q (%d bytes), want %q", n, it.Key(), len(it.Value()), want)
		}
		n++
	}
	it.Close()
	if n != 100 {
		t.Fatalf("copied %d entries, want 100", n)
	}
	if err := engine.Copy(refusing{memory.New(), 0}, src); !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("Copy into an engine refusing every put = %v, want ErrTooLarge", err)
	}
}
