package badger3

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"syscall"

	badgerv3 "github.com/dgraph-io/badger/v3"
	"github.com/dgraph-io/badger/v3/options"
	"github.com/dgraph-io/badger/v3/y"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fault"
	"github.com/tsbench/storage/engine/internal/rangedel"
	"github.com/tsbench/storage/engine/internal/reopen"
	"github.com/tsbench/storage/engine/internal/twoway"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

func init() {
	engine.Register("badger3", engine.Driver{
		Open:       func(dir string, opts engine.Options) (engine.Backend, error) { return open(dir, opts) },
		Version:    Version,
		Build:      Build,
		OnlyByName: true,
		// As the engine "badger": no empty key, none under Badger's own
		// prefix, keys of at most 65,000 bytes, values of at most a value
		// log file (Badger's default 1 GiB), and Compact closes what
		// iterators read.
		Limits: engine.Limits{MinKeySize: 1, MaxKeySize: 65000, MaxValueSize: 1<<30 - 1,
			ReservedPrefixes: []string{"!badger!"}, ExclusiveCompact: true},
	})
}

// kinds maps Badger's errors onto the engine's sentinels, as the engine
// "badger" does.
var kinds = fault.Kinds{
	Corrupt: func(err error) bool {
		s := err.Error()
		return errors.Is(err, y.ErrChecksumMismatch) || strings.Contains(s, "manifest has bad magic") ||
			strings.Contains(s, "manifest has checksum mismatch")
	},
	Locked:   func(err error) bool { return errors.Is(err, syscall.EWOULDBLOCK) },
	TooLarge: func(err error) bool { return errors.Is(err, badgerv3.ErrTxnTooBig) },
}

// DB is a Badger v3 LSM tree behind the engine interface.
type DB struct {
	// db is swapped by Compact, which closes and reopens Badger.
	db   reopen.Handle[*badgerv3.DB]
	opts badgerv3.Options
}

// open opens or creates a Badger v3 database in dir with opts, resolved.
func open(dir string, opts engine.Options) (*DB, error) {
	bloom := 0.0 // Badger's spelling of no filter
	if opts.BloomBitsPerKey > 0 {
		bloom = math.Pow(0.6185, float64(opts.BloomBitsPerKey))
	}
	compression := options.Snappy
	if opts.DisableCompression {
		compression = options.None
	}
	d := &DB{opts: badgerv3.DefaultOptions(dir).
		WithLoggingLevel(badgerv3.WARNING).
		WithSyncWrites(opts.Sync == engine.SyncBatch).
		WithBlockCacheSize(opts.CacheSize).
		WithMemTableSize(opts.WriteBufferSize).
		WithBloomFalsePositive(bloom).
		WithCompression(compression).
		// Badger refuses a threshold above its transaction limit, 15% of
		// the memtable.
		WithValueThreshold(min(1<<20, opts.WriteBufferSize*15/100)).
		WithNumVersionsToKeep(1).
		WithChecksumVerificationMode(options.OnTableRead).
		WithCompactL0OnClose(true).
		WithDetectConflicts(false).
		WithMetricsEnabled(false)}
	db, err := badgerv3.Open(d.opts)
	if err != nil {
		return nil, fmt.Errorf("badger3: %w", kinds.Wrap(err))
	}
	d.db.Set(db)
	return d, nil
}

// Get implements engine.Backend.
func (d *DB) Get(key []byte) (v []byte, err error) {
	err = d.db.Use(func(db *badgerv3.DB) error {
		txn := db.NewTransaction(false)
		defer txn.Discard()
		item, err := txn.Get(key)
		if errors.Is(err, badgerv3.ErrKeyNotFound) {
			return engine.ErrNotFound
		}
		if err == nil {
			v, err = item.ValueCopy(nil)
		}
		if err != nil {
			return fmt.Errorf("badger3: get: %w", kinds.Wrap(err))
		}
		if v == nil {
			v = []byte{}
		}
		return nil
	})
	return v, err
}

// Put implements engine.Backend.
func (d *DB) Put(key, value []byte) error {
	return d.update(func(txn *badgerv3.Txn) error { return txn.Set(key, value) })
}

// Delete implements engine.Backend.
func (d *DB) Delete(key []byte) error {
	return d.update(func(txn *badgerv3.Txn) error { return txn.Delete(key) })
}

// update runs fn in one write transaction and commits it; Badger syncs the
// commit when the sync profile is "batch".
func (d *DB) update(fn func(txn *badgerv3.Txn) error) error {
	return d.db.Use(func(db *badgerv3.DB) error {
		txn := db.NewTransaction(true)
		defer txn.Discard()
		if err := fn(txn); err != nil {
			return fmt.Errorf("badger3: %w", kinds.Wrap(err))
		}
		if err := txn.Commit(); err != nil {
			return fmt.Errorf("badger3: commit: %w", kinds.Wrap(err))
		}
		return nil
	})
}

// NewBatch implements engine.Backend with writes buffered in Go and
// applied in one transaction, which fails with engine.ErrTooLarge over
// Badger's transaction limit.
func (d *DB) NewBatch() engine.BackendBatch {
	return writebuf.NewBatch(d.update, (*badgerv3.Txn).Set, (*badgerv3.Txn).Delete)
}

// DeleteRange implements engine.Backend by scanning and deleting keys:
// Badger has no range tombstone.
func (d *DB) DeleteRange(start, end []byte) error { return rangedel.ByScan(d, start, end) }

// NewIterator implements engine.Backend. The iterator holds a read
// transaction, its snapshot, until it is closed.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	var txn *badgerv3.Txn
	err := d.db.Use(func(db *badgerv3.DB) error {
		txn = db.NewTransaction(false)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return twoway.New(func(reverse bool) *badgerv3.Iterator {
		return txn.NewIterator(badgerv3.IteratorOptions{Reverse: reverse})
	}, txn.Discard, func(err error) error {
		return fmt.Errorf("badger3: read value: %w", kinds.Wrap(err))
	}, opts), nil
}

var _ engine.Flusher = (*DB)(nil)

// Flush implements engine.Flusher: it syncs the memtable's write-ahead
// file and the value log.
func (d *DB) Flush() error {
	return d.db.Use(func(db *badgerv3.DB) error { return kinds.Wrap(db.Sync()) })
}

// Compact implements engine.Backend for the whole database, as the engine
// "badger" does (its compact.go says why): a read transaction to move
// Badger's oldest read past the last commit, a close and reopen that
// flushes the memtable and merges level 0, Flatten, then value-log GC
// until it finds nothing to rewrite.
func (d *DB) Compact(start, end []byte) error {
	return d.db.Exclusive(func(db **badgerv3.DB) error {
		(*db).NewTransaction(false).Discard()
		if err := (*db).Close(); err != nil {
			return fmt.Errorf("%w: badger3: compact: close: %w", engine.ErrBroken, kinds.Wrap(err))
		}
		reopened, err := badgerv3.Open(d.opts)
		if err != nil {
			return fmt.Errorf("%w: badger3: compact: open: %w", engine.ErrBroken, kinds.Wrap(err))
		}
		*db = reopened
		if err := reopened.Flatten(2); err != nil {
			return fmt.Errorf("badger3: compact: %w", kinds.Wrap(err))
		}
		for reopened.RunValueLogGC(0.5) == nil {
		}
		return nil
	})
}

// Close implements engine.Backend. Badger flushes its memtable on close.
func (d *DB) Close() error {
	return d.db.Close(func(db *badgerv3.DB) error {
		if err := db.Close(); err != nil {
			return fmt.Errorf("badger3: close: %w", kinds.Wrap(err))
		}
		return nil
	})
}
