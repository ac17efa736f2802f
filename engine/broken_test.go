package engine_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/inject"
	"github.com/tsbench/storage/engine/memory"
)

// breaking is a backend whose Compact breaks it, as bbolt's does when it
// cannot reopen its file: it waits for release, then fails with
// errBreaking. Every call that reaches it afterwards is counted, since
// the wrapper must refuse them all. Its Limits say ExclusiveCompact, so
// that an iterator or snapshot waits for Compact in the wrapper.
type breaking struct {
	*memory.DB
	compacting, release chan struct{}
	broke               atomic.Bool
	after               atomic.Int64 // calls after it broke, Close aside
}

var errBreaking = fmt.Errorf("%w: testbreak: compact could not reopen", engine.ErrBroken)

var breaker *breaking

func init() {
	engine.Register("testbreak", engine.Driver{
		Open: func(string, engine.Options) (engine.Backend, error) {
			breaker = &breaking{DB: memory.New(), compacting: make(chan struct{}), release: make(chan struct{})}
			return breaker, nil
		},
		Limits: engine.Limits{ExclusiveCompact: true},
	})
}

func (b *breaking) reached() {
	if b.broke.Load() {
		b.after.Add(1)
	}
}

func (b *breaking) Get(key []byte) ([]byte, error) { b.reached(); return b.DB.Get(key) }
func (b *breaking) Put(key, value []byte) error    { b.reached(); return b.DB.Put(key, value) }
func (b *breaking) Delete(key []byte) error        { b.reached(); return b.DB.Delete(key) }
func (b *breaking) NewBatch() engine.Batch         { b.reached(); return b.DB.NewBatch() }

func (b *breaking) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	b.reached()
	return b.DB.NewIterator(o)
}

func (b *breaking) NewSnapshot() (engine.Snapshot, error) {
	b.reached()
	return b.DB.NewSnapshot()
}

func (b *breaking) Compact(start, end []byte) error {
	b.reached()
	close(b.compacting)
	<-b.release
	b.broke.Store(true)
	return errBreaking
}

// TestBrokenBackend checks the latch on a backend that breaks by itself:
// the call that broke it returns its error, an iterator and a snapshot
// that waited for that Compact are refused with it, and so is every later
// call, without reaching the backend; Close still closes it.
func TestBrokenBackend(t *testing.T) {
	db, err := engine.Open("testbreak", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Put([]byte("a"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	compacted := make(chan error, 1)
	go func() { compacted <- db.Compact(nil, nil) }()
	<-breaker.compacting
	waited := make(chan error, 2)
	go func() { _, err := db.NewIterator(engine.IterOptions{}); waited <- err }()
	go func() { _, err := engine.NewSnapshot(db); waited <- err }()
	time.Sleep(20 * time.Millisecond) // both wait for Compact, in the wrapper
	close(breaker.release)
	if err := <-compacted; err != errBreaking {
		t.Fatalf("Compact = %v, want the backend's error %v", err, errBreaking)
	}
	for range 2 {
		if err := <-waited; err != errBreaking {
			t.Errorf("a call that waited for the Compact that broke the backend = %v, want %v", err, errBreaking)
		}
	}
	b := db.NewBatch()
	defer b.Close()
	b.Put([]byte("b"), []byte("2"))
	for name, call := range map[string]func() error{
		"Get":     func() error { _, err := db.Get([]byte("a")); return err },
		"Put":     func() error { return db.Put([]byte("a"), []byte("2")) },
		"Delete":  func() error { return db.Delete([]byte("a")) },
		"Commit":  b.Commit,
		"Compact": func() error { return db.Compact(nil, nil) },
	} {
		if err := call(); err != errBreaking {
			t.Errorf("%s after the backend broke = %v, want %v", name, err, errBreaking)
		}
	}
	if n := breaker.after.Load(); n > 0 {
		t.Errorf("%d calls reached the backend after it broke", n)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("Close of a broken engine: %v", err)
	}
	if _, err := breaker.DB.Get([]byte("a")); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("the backend after Close of a broken engine answers %v, want it closed", err)
	}
}

// TestBrokenConcurrent breaks an engine while several goroutines use it,
// under the race detector: each must see its calls succeed until one
// fails with the injected error, and from then on every call fail with
// that same error.
func TestBrokenConcurrent(t *testing.T) {
	db, err := engine.Open("testmem", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	injected := fmt.Errorf("%w: injected", engine.ErrBroken)
	round := func(g, i int) error {
		k := fmt.Appendf(nil, "%d/%d", g, i)
		if err := db.Put(k, k); err != nil {
			return err
		}
		if _, err := db.Get(k); err != nil {
			return err
		}
		b := db.NewBatch()
		defer b.Close()
		b.Put(k, k)
		if err := b.Commit(); err != nil {
			return err
		}
		it, err := db.NewIterator(engine.IterOptions{LowerBound: k})
		if err != nil {
			return err
		}
		it.First()
		if err := it.Close(); err != nil {
			return err
		}
		s, err := engine.NewSnapshot(db)
		if err != nil {
			return err
		}
		defer s.Close()
		_, err = s.Get(k)
		return err
	}
	const workers = 4
	var started, wg sync.WaitGroup
	started.Add(workers)
	for g := range workers {
		wg.Go(func() {
			i := 0
			for ; ; i++ {
				if i == 100 {
					started.Done()
				}
				if err := round(g, i); err != nil {
					if err != injected {
						t.Errorf("goroutine %d, round %d: %v, want the injected error", g, i, err)
					}
					break
				}
			}
			if i < 100 {
				started.Done()
			}
			for range 10 {
				if err := round(g, i); err != injected {
					t.Errorf("goroutine %d after the engine broke: %v, want the injected error", g, err)
				}
			}
		})
	}
	started.Wait()
	if err := inject.Broken(db, injected); err != nil {
		t.Fatal(err)
	}
	// Only the backend's own calls reach the injected error; the engine
	// breaks at the first, whichever goroutine makes it.
	if err := db.Put([]byte("main"), nil); err != injected {
		t.Errorf("Put after inject.Broken = %v, want the injected error", err)
	}
	wg.Wait()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
