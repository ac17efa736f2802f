package memory

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tsbench/storage/engine"
)

var _ engine.Engine = (*DB)(nil)

// DB is an in-memory ordered key-value store. See the package documentation.
type DB struct {
	view
	// shared is set while an iterator or snapshot may hold data as its
	// view: the next write must copy data rather than change it in place.
	// mu guards it.
	shared bool
}

// view is what the DB and each snapshot read, and what they keep to
// honour the contract on Close: whether it is closed, and how many
// iterators (and, for the DB, snapshots) are open.
type view struct {
	mu     sync.RWMutex // guards data and closed
	data   []entry      // sorted by key; entries are never modified once stored
	closed bool
	open   atomic.Int64
}

// Get implements engine.Reader.
func (v *view) Get(key []byte) ([]byte, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.closed {
		return nil, engine.ErrClosed
	}
	i, ok := search(v.data, key)
	if !ok {
		return nil, engine.ErrNotFound
	}
	return bytes.Clone(v.data[i].value), nil
}

// Close implements engine.Engine and engine.Snapshot: it drops every
// entry, unless v is closed already (engine.ErrClosed) or has iterators
// open (engine.ErrOpenIterators).
func (v *view) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return engine.ErrClosed
	}
	if n := v.open.Load(); n > 0 {
		return fmt.Errorf("%w (%d open)", engine.ErrOpenIterators, n)
	}
	v.closed, v.data = true, nil
	return nil
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
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return engine.ErrClosed
	}
	lo, hi := bounds(db.data, engine.IterOptions{LowerBound: start, UpperBound: end})
	if lo >= hi {
		return nil
	}
	db.own()
	db.data = slices.Delete(db.data, lo, hi)
	return nil
}

// bounds returns the indexes [lo, hi) of the entries of data within opts'
// bounds; lo >= hi when there are none.
func bounds(data []entry, opts engine.IterOptions) (lo, hi int) {
	lo, _ = search(data, opts.LowerBound)
	hi = len(data)
	if opts.UpperBound != nil {
		hi, _ = search(data, opts.UpperBound)
	}
	return lo, hi
}

// op is one write; its key and value belong to the DB once applied.
type op struct {
	key, value []byte
	del        bool
}

// apply performs ops in order under one lock, which makes them atomic.
func (db *DB) apply(ops []op) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return engine.ErrClosed
	}
	if len(ops) == 0 {
		return nil
	}
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

// own makes db.data safe to modify in place, copying it if an iterator or
// snapshot may hold it as its view. The caller holds db.mu for writing.
func (db *DB) own() {
	if db.shared {
		db.data = slices.Clone(db.data)
		db.shared = false
	}
}

// share returns the current data for an iterator or snapshot to keep, and
// counts it as open.
func (db *DB) share() ([]entry, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, engine.ErrClosed
	}
	db.shared = true
	db.open.Add(1)
	return db.data, nil
}

// NewBatch implements engine.Engine.
func (db *DB) NewBatch() engine.Batch { return &batch{db: db} }

// NewIterator implements engine.Engine.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	data, err := db.share()
	if err != nil {
		return nil, err
	}
	return newIterator(data, opts, &db.open), nil
}

// Compact implements engine.Engine; there is no storage to rewrite.
func (db *DB) Compact(start, end []byte) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.closed {
		return engine.ErrClosed
	}
	return nil
}
