package bbolt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/guard"
)

var (
	_ engine.Engine  = (*DB)(nil)
	_ engine.Flusher = (*DB)(nil)
)

func init() {
	engine.Register("bbolt", engine.Driver{
		Open:       func(dir string, opts engine.Options) (engine.Engine, error) { return Open(dir, opts) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
	})
}

const (
	// fileName is the single file bbolt keeps in the engine directory.
	fileName = "data.db"
	// lockTimeout bounds the wait for the file lock, so that opening a
	// directory twice fails instead of hanging.
	lockTimeout = time.Second
)

// bucket is the one bucket holding every key.
var bucket = []byte("kv")

// DB is a bbolt B+tree file used as an engine.Engine.
type DB struct {
	guard guard.Guard

	// mu lets Compact swap the bolt handle: every call holds it for
	// reading, Compact for writing.
	mu sync.RWMutex
	db *bolt.DB // nil once a compaction failed to reopen the file
	// iters counts open iterators, each pinning a read transaction of db.
	// It only grows under mu's read lock, so Compact, holding the write
	// lock, sees a count that cannot rise.
	iters atomic.Int64
	path  string
	bopts *bolt.Options
	fill  float64
}

// Open opens or creates the engine in dir with opts (defaults filled in,
// as engine.Open does).
func Open(dir string, opts engine.Options) (*DB, error) {
	own, err := engine.EngineOptions[Options](opts, "bbolt")
	if err != nil {
		return nil, err
	}
	o, err := own.withDefaults()
	if err != nil {
		return nil, err
	}
	d := &DB{
		path:  filepath.Join(dir, fileName),
		bopts: boltOptions(opts, o),
		fill:  o.FillPercent,
	}
	if d.db, err = d.open(); err != nil {
		return nil, err
	}
	// A copy left by a Compact interrupted before its rename is incomplete,
	// and data.db is whole either way. It is removed only now, under the
	// file lock, so that it cannot be the copy of a live Compact.
	if err := os.Remove(d.path + compactSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.db.Close()
		return nil, fmt.Errorf("bbolt: remove leftover compaction copy: %w", err)
	}
	return d, nil
}

// open opens the data file and makes sure the bucket exists.
func (d *DB) open() (*bolt.DB, error) {
	db, err := bolt.Open(d.path, 0o644, d.bopts)
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("%w: %s", ErrLocked, d.path)
	}
	if err != nil {
		return nil, fmt.Errorf("bbolt: open %s: %w", d.path, err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucket)
		return err
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("bbolt: create bucket: %w", err)
	}
	return db, nil
}

// acquire enters the guard and returns the current handle; a nil error
// must be paired with release.
func (d *DB) acquire() (*bolt.DB, error) {
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
	tx, err := db.Begin(false)
	if err != nil {
		return nil, fmt.Errorf("bbolt: get: %w", err)
	}
	defer tx.Rollback()
	v := tx.Bucket(bucket).Get(key)
	if v == nil {
		return nil, engine.ErrNotFound
	}
	return bytes.Clone(v), nil
}

// Put implements engine.Engine.
func (d *DB) Put(key, value []byte) error {
	return d.update(func(b *bolt.Bucket) error { return put(b, key, value) })
}

// Delete implements engine.Engine.
func (d *DB) Delete(key []byte) error {
	return d.update(func(b *bolt.Bucket) error { return del(b, key) })
}

// update runs fn in one write transaction on the bucket; bbolt fsyncs the
// commit unless the sync profile is "none".
func (d *DB) update(fn func(b *bolt.Bucket) error) error {
	db, err := d.acquire()
	if err != nil {
		return err
	}
	defer d.release()
	return db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		b.FillPercent = d.fill
		return fn(b)
	})
}

func put(b *bolt.Bucket, key, value []byte) error {
	if len(key) == 0 {
		return ErrEmptyKey
	}
	if err := b.Put(key, value); err != nil {
		return fmt.Errorf("bbolt: put: %w", err)
	}
	return nil
}

func del(b *bolt.Bucket, key []byte) error {
	if len(key) == 0 {
		return nil // it cannot exist
	}
	if err := b.Delete(key); err != nil {
		return fmt.Errorf("bbolt: delete: %w", err)
	}
	return nil
}

// deleteChunk caps the deletes of one DeleteRange transaction, so that a
// huge range keeps the dirty pages of a transaction bounded.
const deleteChunk = 10000

// DeleteRange implements engine.Engine with a cursor, in transactions of
// at most deleteChunk deletes.
func (d *DB) DeleteRange(start, end []byte) error {
	if start != nil && end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	from := bytes.Clone(start)
	for done := false; !done; {
		done = true
		err := d.update(func(b *bolt.Bucket) error {
			c := b.Cursor()
			k, _ := c.Seek(from)
			for n := 0; k != nil && (end == nil || bytes.Compare(k, end) < 0); n++ {
				if n == deleteChunk {
					done = false
					from = append(from[:0], k...)
					return nil
				}
				// k points into the page Delete changes; re-seek from a
				// copy, since Next after Delete may skip a key.
				from = append(from[:0], k...)
				if err := c.Delete(); err != nil {
					return fmt.Errorf("bbolt: delete range: %w", err)
				}
				k, _ = c.Seek(from)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// NewBatch implements engine.Engine.
func (d *DB) NewBatch() engine.Batch { return &batch{d: d} }

// NewIterator implements engine.Engine. The iterator holds a read
// transaction until it is closed.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	db, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release()
	tx, err := db.Begin(false)
	if err != nil {
		return nil, fmt.Errorf("bbolt: new iterator: %w", err)
	}
	d.iters.Add(1)
	d.guard.IterOpened()
	return &iterator{
		d:     d,
		tx:    tx,
		c:     tx.Bucket(bucket).Cursor(),
		lower: bytes.Clone(opts.LowerBound),
		upper: bytes.Clone(opts.UpperBound),
	}, nil
}

// iterClosed uncounts an iterator whose transaction has ended.
func (d *DB) iterClosed() {
	d.iters.Add(-1)
	d.guard.IterClosed()
}

// Flush implements engine.Flusher: it fsyncs the file, which makes the
// commits of the "none" sync profile durable.
func (d *DB) Flush() error {
	db, err := d.acquire()
	if err != nil {
		return err
	}
	defer d.release()
	if err := db.Sync(); err != nil {
		return fmt.Errorf("bbolt: flush: %w", err)
	}
	return nil
}

// Close implements engine.Engine. Under the "none" profile it fsyncs
// first, so that a closed engine's data survives a machine failure too.
func (d *DB) Close() error {
	return d.guard.Close(func() error {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.db == nil {
			return nil
		}
		var serr error
		if d.bopts.NoSync {
			serr = d.db.Sync()
		}
		err := errors.Join(serr, d.db.Close())
		d.db = nil
		if err != nil {
			return fmt.Errorf("bbolt: close: %w", err)
		}
		return nil
	})
}
