package enginetest_test

import (
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
func init() {
	engine.Register("memory", engine.Driver{Open: disk.open})
}

func TestMemory(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) {
		return engine.Open("memory", dir, nil)
	})
}

var disk = fakeDisk{dirs: map[string][][2][]byte{}}

type fakeDisk struct {
	mu   sync.Mutex
	dirs map[string][][2][]byte // entries saved by Close, in order
}

func (f *fakeDisk) open(dir string, _ engine.Options) (engine.Engine, error) {
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
	it, err := s.DB.NewIterator(engine.IterOptions{})
	if err != nil {
		return err
	}
	var entries [][2][]byte
	for ok := it.First(); ok; ok = it.Next() {
		entries = append(entries, [2][]byte{append([]byte(nil), it.Key()...), append([]byte(nil), it.Value()...)})
	}
	if err := it.Close(); err != nil {
		return err
	}
	if err := s.DB.Close(); err != nil {
		return err
	}
	s.disk.mu.Lock()
	s.disk.dirs[s.dir] = entries
	s.disk.mu.Unlock()
	return nil
}
