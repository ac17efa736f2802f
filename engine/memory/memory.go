package memory

import (
	"bytes"
	"slices"
	"sync"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/guard"
)

var _ engine.Engine = (*DB)(nil)

// DB is an in-memory ordered key-value store. See the package documentation.
type DB struct {
	guard guard.Guard

	mu   sync.RWMutex
	data []entry // sorted by key; entries are never modified once stored
	// shared is set while an iterator may hold data as its snapshot: the
	// next write must copy data rather than change it in place.
	shared bool
}

type entry struct {
	key, value []byte
}

// New returns an empty DB.
func New() *DB { return &DB{} }

// search returns the index of the first entry with a key >= key, and
// whether that entry's key equals key.
func search(data []entry, key []byte) (int, bool) {
	return slices.BinarySearchFunc(data, key, func(e entry, k []byte) int {
		return bytes.Compare(e.key, k)
	})
}

// Get implements engine.Engine.
func (db *DB) Get(key []byte) ([]byte, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	db.mu.RLock()
	defer db.mu.RUnlock()
	i, ok := search(db.data, key)
	if !ok {
		return nil, engine.ErrNotFound
	}
	return bytes.Clone(db.data[i].value), nil
}

// Put implements engine.Engine.
func (db *DB) Put(key, value []byte) error {
	return db.apply([]op{{key: bytes.Clone(key), value: bytes.Clone(value)}})
}

// Delete implements engine.Engine.
func (db *DB) Delete(key []byte) error {
	return db.apply([]op{{key: bytes.Clone(key), del: true}})
}

// DeleteRange implements engine.Engine. A nil start or end is unbounded,
// as in the fallback that backends without a native range delete use.
func (db *DB) DeleteRange(start, end []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	db.mu.Lock()
	defer db.mu.Unlock()
	lo, _ := search(db.data, start)
	hi := len(db.data)
	if end != nil {
		hi, _ = search(db.data, end)
	}
	if lo >= hi {
		return nil
	}
	db.own()
	db.data = slices.Delete(db.data, lo, hi)
	return nil
}

// op is one write; its key and value belong to the DB once applied.
type op struct {
	key, value []byte
	del        bool
}

// apply performs ops in order under one lock, which makes them atomic.
func (db *DB) apply(ops []op) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	db.mu.Lock()
	defer db.mu.Unlock()
	db.own()
	for _, o := range ops {
		i, found := search(db.data, o.key)
		switch {
		case o.del && found:
			db.data = slices.Delete(db.data, i, i+1)
		case o.del:
		case found:
			db.data[i].value = o.value
		default:
			db.data = slices.Insert(db.data, i, entry{o.key, o.value})
		}
	}
	return nil
}

// own makes db.data safe to modify in place, copying it if an iterator may
// hold it as a snapshot. The caller holds db.mu for writing.
func (db *DB) own() {
	if db.shared {
		db.data = slices.Clone(db.data)
		db.shared = false
	}
}

// NewBatch implements engine.Engine.
func (db *DB) NewBatch() engine.Batch { return &batch{db: db} }

// NewIterator implements engine.Engine.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	db.mu.Lock()
	data := db.data
	db.shared = true
	db.mu.Unlock()
	lo, _ := search(data, opts.LowerBound)
	hi := len(data)
	if opts.UpperBound != nil {
		hi, _ = search(data, opts.UpperBound)
	}
	db.guard.IterOpened()
	return &iterator{db: db, data: data, lo: lo, hi: max(lo, hi), pos: -1}, nil
}

// Compact implements engine.Engine; there is no storage to rewrite.
func (db *DB) Compact(start, end []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	db.guard.Exit()
	return nil
}

// Close implements engine.Engine; it drops every entry.
func (db *DB) Close() error {
	return db.guard.Close(func() error {
		db.mu.Lock()
		db.data = nil
		db.mu.Unlock()
		return nil
	})
}
