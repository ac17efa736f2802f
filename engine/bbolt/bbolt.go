package bbolt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fault"
	"github.com/tsbench/storage/engine/internal/reopen"
)

func init() {
	engine.RegisterBackend("bbolt", open, engine.Driver{
		Version: Version,
		Build:   Build,
		// bbolt cannot store the empty key, nor one above bolt.MaxKeySize,
		// nor a value above bolt.MaxValueSize, and Compact replaces the
		// file open iterators read.
		Limits:    engine.Limits{MinKeySize: 1, MaxKeySize: bolt.MaxKeySize, MaxValueSize: bolt.MaxValueSize, ExclusiveCompact: true},
		Recognize: recognize,
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

// kinds maps bbolt's errors onto the engine's sentinels.
var kinds = fault.Kinds{
	Corrupt: func(err error) bool {
		return errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) ||
			errors.Is(err, berrors.ErrVersionMismatch) || errors.Is(err, errShort)
	},
	Locked: func(err error) bool { return errors.Is(err, berrors.ErrTimeout) },
	TooLarge: func(err error) bool {
		return errors.Is(err, berrors.ErrKeyTooLarge) || errors.Is(err, berrors.ErrValueTooLarge)
	},
}

// errShort reports a data file shorter than its meta page says it is,
// which bbolt itself does not check: reading the missing pages would
// crash the process.
var errShort = errors.New("bbolt: data file is shorter than its meta page says")

// DB is a bbolt B+tree file used as an engine.Engine.
type DB struct {
	// db is swapped by Compact, which reopens the file.
	db    reopen.Handle[*bolt.DB]
	path  string
	bopts *bolt.Options
	fill  float64
}

// Open opens or creates the engine in dir, an existing directory, with
// opts, resolved first as engine.Open resolves them: the backend alone,
// without the directory lock and the contract's rules that
// engine.Open("bbolt", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("bbolt", dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in o.
func open(dir string, opts engine.Options, o Options) (*DB, error) {
	d := &DB{
		path:  filepath.Join(dir, fileName),
		bopts: boltOptions(opts, o),
		fill:  o.FillPercent,
	}
	db, err := d.open()
	if err != nil {
		return nil, err
	}
	d.db.Set(db)
	// A copy left by a Compact interrupted before its rename is incomplete,
	// and data.db is whole either way. It is removed only now, under the
	// file lock, so that it cannot be the copy of a live Compact.
	if err := os.Remove(d.path + compactSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
		db.Close()
		return nil, fmt.Errorf("bbolt: remove leftover compaction copy: %w", err)
	}
	return d, nil
}

// open opens the data file, checks its length and makes sure the bucket
// exists. A store that has it is only read: a write transaction would
// rewrite the meta and freelist pages (and sync) at every open, so that
// opening a store to read it would change it.
func (d *DB) open() (*bolt.DB, error) {
	db, err := bolt.Open(d.path, 0o644, d.bopts)
	if err != nil {
		return nil, fmt.Errorf("bbolt: open %s: %w", d.path, kinds.Wrap(err))
	}
	exists := false
	err = db.View(func(tx *bolt.Tx) error {
		if fi, err := os.Stat(d.path); err != nil {
			return err
		} else if fi.Size() < tx.Size() {
			return kinds.Wrap(fmt.Errorf("%w: %d bytes, %d in use", errShort, fi.Size(), tx.Size()))
		}
		exists = tx.Bucket(bucket) != nil
		return nil
	})
	if err == nil && !exists {
		err = db.Update(func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(bucket)
			return err
		})
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("bbolt: open %s: %w", d.path, kinds.Wrap(err))
	}
	return db, nil
}

// begin starts a read transaction that outlives the call, for an
// iterator or a snapshot to end.
func (d *DB) begin() (tx *bolt.Tx, err error) {
	err = d.db.Use(func(db *bolt.DB) error {
		tx, err = db.Begin(false)
		return kinds.Wrap(err)
	})
	return tx, err
}

// view runs fn in a read transaction on the bucket.
func (d *DB) view(fn func(b *bolt.Bucket) error) error {
	return d.db.Use(func(db *bolt.DB) error {
		return kinds.Wrap(db.View(func(tx *bolt.Tx) error { return fn(tx.Bucket(bucket)) }))
	})
}

// Get implements engine.Backend.
func (d *DB) Get(key []byte) (v []byte, err error) {
	err = d.view(func(b *bolt.Bucket) error {
		v, err = get(b, key)
		return err
	})
	return v, err
}

// get returns a copy of key's value in b.
func get(b *bolt.Bucket, key []byte) ([]byte, error) {
	v := b.Get(key)
	if v == nil {
		return nil, engine.ErrNotFound
	}
	return bytes.Clone(v), nil
}

// Put implements engine.Backend.
func (d *DB) Put(key, value []byte) error {
	return d.update(func(b *bolt.Bucket) error { return b.Put(key, value) })
}

// Delete implements engine.Backend.
func (d *DB) Delete(key []byte) error {
	return d.update(func(b *bolt.Bucket) error { return b.Delete(key) })
}

// update runs fn in one write transaction on the bucket; bbolt fsyncs the
// commit unless the sync profile is "none".
func (d *DB) update(fn func(b *bolt.Bucket) error) error {
	return d.db.Use(func(db *bolt.DB) error {
		return kinds.Wrap(db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucket)
			b.FillPercent = d.fill
			return fn(b)
		}))
	})
}

// deleteChunk caps the deletes of one DeleteRange transaction, so that a
// huge range keeps the dirty pages of a transaction bounded.
const deleteChunk = 10000

// DeleteRange implements engine.Backend with a cursor, in transactions of
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
					return err
				}
				k, _ = c.Seek(from)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("bbolt: delete range: %w", err)
		}
	}
	return nil
}

var _ engine.Flusher = (*DB)(nil)

// Flush implements engine.Flusher: it fsyncs the file, which makes the
// commits of the "none" sync profile durable.
func (d *DB) Flush() error {
	return d.db.Use(func(db *bolt.DB) error {
		if err := db.Sync(); err != nil {
			return fmt.Errorf("bbolt: flush: %w", kinds.Wrap(err))
		}
		return nil
	})
}

// Close implements engine.Backend. Under the "none" profile it fsyncs
// first, so that a closed engine's data survives a machine failure too.
func (d *DB) Close() error {
	return d.db.Close(func(db *bolt.DB) error {
		var serr error
		if d.bopts.NoSync {
			serr = db.Sync()
		}
		if err := errors.Join(serr, db.Close()); err != nil {
			return fmt.Errorf("bbolt: close: %w", kinds.Wrap(err))
		}
		return nil
	})
}
