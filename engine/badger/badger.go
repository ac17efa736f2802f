package badger

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	badgerv4 "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/y"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fault"
	"github.com/tsbench/storage/engine/internal/rangedel"
	"github.com/tsbench/storage/engine/internal/reopen"
)

func init() {
	engine.RegisterBackend("badger", open, engine.Driver{
		Version: Version,
		Build:   Build,
		// Badger refuses the empty key and keys under the prefix of its
		// own records, and caps keys at 65,000 bytes; Compact closes the
		// database that iterators and snapshots read. DB.Limits adds the
		// value limit, which depends on the options.
		Limits:    limits,
		Recognize: recognize,
		Expiry:    true, // each write's entries get a TTL (set)
	})
}

// maxKeySize is Badger's key size limit (its maxKeySize, unexported).
const maxKeySize = 65000

var limits = engine.Limits{MinKeySize: 1, MaxKeySize: maxKeySize, ReservedPrefixes: []string{"!badger!"}, ExclusiveCompact: true}

// Limits implements engine's per-backend limits: the driver's, and values
// of at most value_log_file_size, which Badger refuses above. Its batch
// limits (a transaction of about 15% of write_buffer_size) count its own
// overhead per entry and leave large values out, so they are not a size
// of keys and values: a batch over them fails with engine.ErrTooLarge
// from Badger.
func (d *DB) Limits() engine.Limits {
	l := limits
	l.MaxValueSize = int(d.opts.ValueLogFileSize)
	return l
}

// kinds maps Badger's errors onto the engine's sentinels. Its manifest
// errors are unexported, so they are known by their messages.
var kinds = fault.Kinds{
	Corrupt: func(err error) bool {
		s := err.Error()
		return errors.Is(err, y.ErrChecksumMismatch) || strings.Contains(s, "manifest has bad magic") ||
			strings.Contains(s, "manifest has checksum mismatch")
	},
	Locked:   func(err error) bool { return errors.Is(err, syscall.EWOULDBLOCK) },
	TooLarge: func(err error) bool { return errors.Is(err, badgerv4.ErrTxnTooBig) },
}

// DB is a Badger LSM tree used as an engine.Engine.
type DB struct {
	// db is swapped by Compact, which closes and reopens Badger.
	db   reopen.Handle[*badgerv4.DB]
	opts badgerv4.Options
	// expiry is engine.Options.Expiry: 0, or the TTL of every entry.
	expiry time.Duration
}

// Open opens or creates the engine in dir, an existing directory, with
// opts, resolved first as engine.Open resolves them: the backend alone,
// without the directory lock and the contract's rules that
// engine.Open("badger", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("badger", dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in o.
func open(dir string, opts engine.Options, o Options) (*DB, error) {
	d := &DB{opts: badgerOptions(dir, opts, o), expiry: opts.Expiry}
	db, err := badgerv4.Open(d.opts)
	if err != nil {
		return nil, fmt.Errorf("badger: %w", kinds.Wrap(err))
	}
	d.db.Set(db)
	return d, nil
}

// Get implements engine.Backend.
func (d *DB) Get(key []byte) (v []byte, err error) {
	err = d.db.Use(func(db *badgerv4.DB) error {
		txn := db.NewTransaction(false)
		defer txn.Discard()
		v, err = get(txn, key)
		return err
	})
	return v, err
}

// get returns a copy of key's value as txn sees it.
func get(txn *badgerv4.Txn, key []byte) ([]byte, error) {
	item, err := txn.Get(key)
	if errors.Is(err, badgerv4.ErrKeyNotFound) {
		return nil, engine.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("badger: get: %w", kinds.Wrap(err))
	}
	v, err := item.ValueCopy(nil)
	if err != nil {
		return nil, fmt.Errorf("badger: get: %w", kinds.Wrap(err))
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

// Put implements engine.Backend.
func (d *DB) Put(key, value []byte) error {
	return d.update(func(txn *badgerv4.Txn) error { return d.set(txn, key, value) })
}

// set puts key in txn, with the expiry's TTL if there is one. Badger
// keeps an entry's end in whole seconds and hides it from reads once
// that second has come, so the end is rounded up: an entry stays
// readable at least the expiry after its write, as engine.Options
// promises, never up to a second less (Entry.WithTTL rounds down).
func (d *DB) set(txn *badgerv4.Txn, key, value []byte) error {
	if d.expiry == 0 {
		return txn.Set(key, value)
	}
	end := time.Now().Add(d.expiry)
	secs := end.Unix()
	if end.Nanosecond() > 0 {
		secs++
	}
	e := badgerv4.NewEntry(key, value)
	e.ExpiresAt = uint64(secs)
	return txn.SetEntry(e)
}

// Delete implements engine.Backend.
func (d *DB) Delete(key []byte) error {
	return d.update(func(txn *badgerv4.Txn) error { return txn.Delete(key) })
}

// update runs fn in one write transaction and commits it; Badger syncs the
// commit when the sync profile is "batch".
func (d *DB) update(fn func(txn *badgerv4.Txn) error) error {
	return d.db.Use(func(db *badgerv4.DB) error {
		txn := db.NewTransaction(true)
		defer txn.Discard()
		if err := fn(txn); err != nil {
			return fmt.Errorf("badger: %w", kinds.Wrap(err))
		}
		if err := txn.Commit(); err != nil {
			return fmt.Errorf("badger: commit: %w", kinds.Wrap(err))
		}
		return nil
	})
}

// DeleteRange implements engine.Backend by scanning keys (values are not
// read) and deleting them in bounded transactions: Badger has no range
// tombstone, and DropPrefix only fits ranges that are whole prefixes.
func (d *DB) DeleteRange(start, end []byte) error {
	return rangedel.ByScan(d, start, end)
}

var (
	_ engine.Flusher      = (*DB)(nil)
	_ engine.Backgrounder = (*DB)(nil)
)

// Flush implements engine.Flusher: it syncs the memtable's write-ahead
// file and the value log, which makes the commits of the "none" sync
// profile durable.
func (d *DB) Flush() error {
	return d.db.Use(func(db *badgerv4.DB) error {
		if err := db.Sync(); err != nil {
			return fmt.Errorf("badger: flush: %w", kinds.Wrap(err))
		}
		return nil
	})
}

// Busy implements engine.Backgrounder: it reports whether a level of the
// LSM tree is over its target, which is when Badger's compactors work.
// A memtable waiting to be flushed is not visible through Badger's API.
func (d *DB) Busy() (busy bool, err error) {
	err = d.db.Use(func(db *badgerv4.DB) error {
		for _, l := range db.Levels() {
			busy = busy || l.Score >= 1
		}
		return nil
	})
	return busy, err
}

// Close implements engine.Backend. Badger flushes its memtable to a table
// file on close.
func (d *DB) Close() error {
	return d.db.Close(func(db *badgerv4.DB) error {
		if err := db.Close(); err != nil {
			return fmt.Errorf("badger: close: %w", kinds.Wrap(err))
		}
		return nil
	})
}
