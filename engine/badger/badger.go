package badger

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/guard"
	"github.com/tsbench/storage/engine/internal/rangedel"
)

var (
	_ engine.Engine       = (*DB)(nil)
	_ engine.Flusher      = (*DB)(nil)
	_ engine.Backgrounder = (*DB)(nil)
)

func init() {
	engine.Register("badger", engine.Driver{
		Open:       func(dir string, opts engine.Options) (engine.Engine, error) { return Open(dir, opts) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
	})
}

// reserved is the key prefix Badger keeps for its own records.
var reserved = []byte("!badger!")

// DB is a Badger LSM tree used as an engine.Engine.
type DB struct {
	guard guard.Guard

	// mu lets Compact close and reopen Badger: every call holds it for
	// reading, Compact for writing.
	mu sync.RWMutex
	db *badgerv4.DB // nil once a compaction failed to reopen
	// iters counts open iterators, each holding a transaction of db. It
	// only grows under mu's read lock, so Compact, holding the write lock,
	// sees a count that cannot rise.
	iters atomic.Int64
	opts  badgerv4.Options
}

// Open opens or creates the engine in dir with opts (defaults filled in,
// as engine.Open does).
func Open(dir string, opts engine.Options) (*DB, error) {
	own, err := engine.EngineOptions[Options](opts, "badger")
	if err != nil {
		return nil, err
	}
	o, err := own.withDefaults(opts.WriteBufferSize)
	if err != nil {
		return nil, err
	}
	d := &DB{opts: badgerOptions(dir, opts, o)}
	if d.db, err = badgerv4.Open(d.opts); err != nil {
		return nil, fmt.Errorf("badger: %w", err)
	}
	return d, nil
}

// acquire enters the guard and returns the current handle; a nil error
// must be paired with release.
func (d *DB) acquire() (*badgerv4.DB, error) {
	if err := d.guard.Enter(); err != nil {
		return nil, err
	}
	d.mu.RLock()
	if d.db == nil {
		d.mu.RUnlock()
		d.guard.Exit()
		return nil, ErrBroken
	}
	return d.db, nil
}

func (d *DB) release() {
	d.mu.RUnlock()
	d.guard.Exit()
}

// Get implements engine.Engine.
func (d *DB) Get(key []byte) ([]byte, error) {
	db, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release()
	if len(key) == 0 || bytes.HasPrefix(key, reserved) {
		return nil, engine.ErrNotFound // such keys cannot be written
	}
	txn := db.NewTransaction(false)
	defer txn.Discard()
	item, err := txn.Get(key)
	if errors.Is(err, badgerv4.ErrKeyNotFound) {
		return nil, engine.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("badger: get: %w", err)
	}
	v, err := item.ValueCopy(nil)
	if err != nil {
		return nil, fmt.Errorf("badger: get: %w", err)
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

// Put implements engine.Engine.
func (d *DB) Put(key, value []byte) error {
	return d.update(func(txn *badgerv4.Txn) error { return set(txn, key, value) })
}

// Delete implements engine.Engine.
func (d *DB) Delete(key []byte) error {
	return d.update(func(txn *badgerv4.Txn) error { return del(txn, key) })
}

// update runs fn in one write transaction and commits it; Badger syncs the
// commit when the sync profile is "batch".
func (d *DB) update(fn func(txn *badgerv4.Txn) error) error {
	db, err := d.acquire()
	if err != nil {
		return err
	}
	defer d.release()
	txn := db.NewTransaction(true)
	defer txn.Discard()
	if err := fn(txn); err != nil {
		return err
	}
	if err := txn.Commit(); err != nil {
		return fmt.Errorf("badger: commit: %w", err)
	}
	return nil
}

func set(txn *badgerv4.Txn, key, value []byte) error {
	switch {
	case len(key) == 0:
		return ErrEmptyKey
	case bytes.HasPrefix(key, reserved):
		return fmt.Errorf("%w: %q", ErrReservedKey, key)
	}
	return wrapTxnErr(txn.Set(key, value))
}

func del(txn *badgerv4.Txn, key []byte) error {
	if len(key) == 0 || bytes.HasPrefix(key, reserved) {
		return nil // such keys cannot exist
	}
	return wrapTxnErr(txn.Delete(key))
}

func wrapTxnErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, badgerv4.ErrTxnTooBig):
		return ErrBatchTooBig
	default:
		return fmt.Errorf("badger: %w", err)
	}
}

// DeleteRange implements engine.Engine by scanning keys (values are not
// read) and deleting them in bounded transactions: Badger has no range
// tombstone, and DropPrefix only fits ranges that are whole prefixes.
func (d *DB) DeleteRange(start, end []byte) error {
	return rangedel.ByScan(d, start, end)
}

// NewBatch implements engine.Engine.
func (d *DB) NewBatch() engine.Batch { return &batch{d: d} }

// NewIterator implements engine.Engine. The iterator holds a read
// transaction, its snapshot, until it is closed.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	db, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release()
	d.iters.Add(1)
	d.guard.IterOpened()
	return &iterator{
		d:     d,
		txn:   db.NewTransaction(false),
		lower: bytes.Clone(opts.LowerBound),
		upper: bytes.Clone(opts.UpperBound),
	}, nil
}

// iterClosed uncounts an iterator whose transaction has ended.
func (d *DB) iterClosed() {
	d.iters.Add(-1)
	d.guard.IterClosed()
}

// Flush implements engine.Flusher: it syncs the memtable's write-ahead
// file and the value log, which makes the commits of the "none" sync
// profile durable.
func (d *DB) Flush() error {
	db, err := d.acquire()
	if err != nil {
		return err
	}
	defer d.release()
	if err := db.Sync(); err != nil {
		return fmt.Errorf("badger: flush: %w", err)
	}
	return nil
}

// Busy implements engine.Backgrounder: it reports whether a level of the
// LSM tree is over its target, which is when Badger's compactors work.
// A memtable waiting to be flushed is not visible through Badger's API.
func (d *DB) Busy() (bool, error) {
	db, err := d.acquire()
	if err != nil {
		return false, err
	}
	defer d.release()
	for _, l := range db.Levels() {
		if l.Score >= 1 {
			return true, nil
		}
	}
	return false, nil
}

// Close implements engine.Engine. Badger flushes its memtable to a table
// file on close.
func (d *DB) Close() error {
	return d.guard.Close(func() error {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.db == nil {
			return nil
		}
		err := d.db.Close()
		d.db = nil
		if err != nil {
			return fmt.Errorf("badger: close: %w", err)
		}
		return nil
	})
}
