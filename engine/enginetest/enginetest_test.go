package enginetest_test

import (
	"os"
	"sync"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/memory"
)

// The suite runs here against engine/memory, registered for this test
// only, so that it is exercised without any C library. A fake disk keeps
// each directory's entries across Close, standing in for the files a real
// engine writes, so that the persistence checks apply. Nothing lands in
// the directory but the ENGINE marker, so the Compact subtest checks that
// survivors are kept and skips its disk-space check.
//
// "memory" has no limits and native snapshots and iterator reuse;
// "memory-strict" has the strictest key Limits the contract allows, value
// and batch limits just above the suite's own writes, a native
// Checkpoint, and hides memory's snapshots, iterator reuse and batch
// Reset, so that engine.Open's fallbacks for them run instead.
func init() {
	engine.Register("memory", engine.Driver{Open: disk.open})
	engine.Register("memory-strict", engine.Driver{
		Open: func(dir string, o engine.Options) (engine.Backend, error) {
			db, err := disk.open(dir, o)
			if err != nil {
				return nil, err
			}
			return strictDB{db.(*savedDB)}, nil
		},
		Limits: strictLimits(),
	})
}

// strictLimits are CommonLimits with value and batch limits that the
// suite's writes stay within: values of 1 MiB, batches of 2 MiB and of
// 3000 operations.
func strictLimits() engine.Limits {
	l := engine.CommonLimits()
	l.MaxValueSize, l.MaxBatchSize, l.MaxBatchOps = 1<<20+1, 3<<20, 3000
	return l
}

func TestMemory(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) {
		return engine.Open("memory", dir, nil)
	})
}

func TestMemoryStrict(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) {
		return engine.Open("memory-strict", dir, nil)
	})
}

var disk = fakeDisk{dirs: map[string][][2][]byte{}}

type fakeDisk struct {
	mu   sync.Mutex
	dirs map[string][][2][]byte // entries saved by Close, in order
}

func (f *fakeDisk) open(dir string, _ engine.Options) (engine.Backend, error) {
	f.mu.Lock()
	saved := f.dirs[dir]
	f.mu.Unlock()
	db := memory.New()
	b := db.NewBatch()
	defer b.Close()
	for _, e := range saved {
		b.Put(e[0], e[1])
	}
	if err := b.Commit(); err != nil {
		return nil, err
	}
	return &savedDB{DB: db, dir: dir, disk: f}, nil
}

// savedDB is a memory.DB whose Close saves its entries to the fake disk.
type savedDB struct {
	*memory.DB
	dir  string
	disk *fakeDisk
}

func (s *savedDB) Close() error {
	entries, err := s.entries()
	if err != nil {
		return err
	}
	if err := s.DB.Close(); err != nil {
		return err
	}
	s.disk.save(s.dir, entries)
	return nil
}

// entries returns copies of every entry, in order.
func (s *savedDB) entries() ([][2][]byte, error) {
	it, err := s.DB.NewIterator(engine.IterOptions{})
	if err != nil {
		return nil, err
	}
	var entries [][2][]byte
	for ok := it.First(); ok; ok = it.Next() {
		entries = append(entries, [2][]byte{append([]byte(nil), it.Key()...), append([]byte(nil), it.Value()...)})
	}
	return entries, it.Close()
}

func (f *fakeDisk) save(dir string, entries [][2][]byte) {
	f.mu.Lock()
	f.dirs[dir] = entries
	f.mu.Unlock()
}

// strictDB is a thin backend over a savedDB: only the Backend methods,
// so that memory's snapshots are hidden, iterators without SetBounds,
// batches without Len, Size or Reset (the wrapper's fallbacks), and a
// native checkpoint that saves to the fake disk.
type strictDB struct{ s *savedDB }

func (d strictDB) Get(key []byte) ([]byte, error)      { return d.s.Get(key) }
func (d strictDB) Put(key, value []byte) error         { return d.s.Put(key, value) }
func (d strictDB) Delete(key []byte) error             { return d.s.Delete(key) }
func (d strictDB) DeleteRange(start, end []byte) error { return d.s.DeleteRange(start, end) }
func (d strictDB) Compact(start, end []byte) error     { return d.s.Compact(start, end) }
func (d strictDB) Close() error                        { return d.s.Close() }
func (d strictDB) NewBatch() engine.BackendBatch       { return plainBatch{d.s.NewBatch()} }

func (d strictDB) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	it, err := d.s.NewIterator(o)
	if err != nil {
		return nil, err
	}
	return plainIter{it}, nil
}

// Checkpoint saves the entries to the fake disk under dir, which it
// creates, as Close would.
func (d strictDB) Checkpoint(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	entries, err := d.s.entries()
	if err != nil {
		return err
	}
	d.s.disk.save(dir, entries)
	return nil
}

// plainBatch is a thin backend's batch: no Len, Size or Reset.
type plainBatch struct{ b engine.Batch }

func (p plainBatch) Put(key, value []byte) { p.b.Put(key, value) }
func (p plainBatch) Delete(key []byte)     { p.b.Delete(key) }
func (p plainBatch) Commit() error         { return p.b.Commit() }
func (p plainBatch) Close() error          { return p.b.Close() }

type plainIter struct{ engine.Iterator }
