package pebble1

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"strings"
	"syscall"

	pebbledb "github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/cockroachdb/pebble/vfs"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fault"
	"github.com/tsbench/storage/engine/internal/rangedel"
)

func init() {
	engine.Register("pebble1", engine.Driver{
		Open:       func(dir string, opts engine.Options) (engine.Backend, error) { return open(dir, opts) },
		Version:    Version,
		Build:      Build,
		OnlyByName: true,
		// As the engine "pebble": Pebble v1 panics once a batch's
		// encoding reaches 4 GiB too.
		Limits: engine.Limits{MaxValueSize: 3 << 30, MaxBatchSize: 3 << 30},
	})
}

// DB is a Pebble v1 database behind the engine interface.
type DB struct {
	db *pebbledb.DB
}

// kinds maps Pebble's errors onto the engine's sentinels, as the engine
// "pebble" does.
var kinds = fault.Kinds{
	Corrupt: pebbledb.IsCorruptionError,
	Locked: func(err error) bool {
		return errors.Is(err, syscall.EWOULDBLOCK) || strings.Contains(err.Error(), "lock held by current process")
	},
}

// wo syncs every commit; under "none" the WAL's sync does nothing
// (walsync.go).
var wo = pebbledb.Sync

// open opens or creates a Pebble v1 database in dir with opts, resolved.
func open(dir string, opts engine.Options) (*DB, error) {
	po := &pebbledb.Options{
		// Pebble charges its memtables to the cache, as the engine
		// "pebble" sizes it: cache_size for blocks plus the memtables
		// that may queue (Pebble's default of 2).
		Cache:        pebbledb.NewCache(opts.CacheSize + 2*opts.WriteBufferSize),
		MemTableSize: uint64(opts.WriteBufferSize),
		MaxOpenFiles: opts.MaxOpenFiles,
		// Pebble's default is the oldest format.
		FormatMajorVersion: pebbledb.FormatNewest,
		Logger:             quietLogger{},
	}
	defer po.Cache.Unref() // Open takes its own reference
	compression := pebbledb.SnappyCompression
	if opts.DisableCompression {
		compression = pebbledb.NoCompression
	}
	var filter pebbledb.FilterPolicy
	if opts.BloomBitsPerKey > 0 {
		filter = bloom.FilterPolicy(opts.BloomBitsPerKey)
	}
	// One level's options: Pebble derives each level below from them,
	// doubling its 2 MiB target file size per level.
	po.Levels = []pebbledb.LevelOptions{{Compression: compression, FilterPolicy: filter}}
	if opts.Sync != engine.SyncBatch {
		po.FS = walNoSyncFS{vfs.Default}
	}
	po.EnsureDefaults()
	// Validate names each problem on a line of its own; a memtable of
	// 4 GiB or more, which the shared bounds allow, is one.
	if err := po.Validate(); err != nil {
		return nil, fmt.Errorf("%w: pebble1: %s", engine.ErrInvalidOptions, strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "))
	}
	db, err := pebbledb.Open(dir, po)
	if err != nil {
		return nil, kinds.Wrap(err)
	}
	return &DB{db: db}, nil
}

// quietLogger drops Pebble's informational messages, which would garble
// a benchmark's output, and logs its errors; a fatal one ends the process
// as Pebble's default logger does.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}

func (quietLogger) Fatalf(format string, args ...any) { log.Fatalf("pebble1: "+format, args...) }

// Get implements engine.Backend.
func (db *DB) Get(key []byte) ([]byte, error) {
	v, closer, err := db.db.Get(key)
	if errors.Is(err, pebbledb.ErrNotFound) {
		return nil, engine.ErrNotFound
	}
	if err != nil {
		return nil, kinds.Wrap(err)
	}
	out := bytes.Clone(v)
	if out == nil {
		out = []byte{}
	}
	return out, kinds.Wrap(closer.Close())
}

// Put implements engine.Backend.
func (db *DB) Put(key, value []byte) error { return kinds.Wrap(db.db.Set(key, value, wo)) }

// Delete implements engine.Backend.
func (db *DB) Delete(key []byte) error { return kinds.Wrap(db.db.Delete(key, wo)) }

// DeleteRange implements engine.Backend with one range tombstone.
func (db *DB) DeleteRange(start, end []byte) error {
	start, end, ok, err := rangedel.Span(db, start, end)
	if err != nil || !ok {
		return err
	}
	return kinds.Wrap(db.db.DeleteRange(start, end, wo))
}

// Compact implements engine.Backend as the engine "pebble" does: a flush,
// so that recent deletes reach the tables, then a compaction of every
// level over the range (the tables' bounds where the range is open), and
// a wait for the replaced files' deletion.
func (db *DB) Compact(start, end []byte) error {
	if err := db.db.Flush(); err != nil {
		return kinds.Wrap(err)
	}
	if start == nil || end == nil {
		lo, hi, ok, err := db.tableBounds()
		if err != nil || !ok {
			return err
		}
		if start == nil {
			start = lo
		}
		if end == nil {
			end = append(hi, 0)
		}
	}
	if bytes.Compare(start, end) >= 0 {
		return nil
	}
	if err := db.db.Compact(start, end, true); err != nil {
		return kinds.Wrap(err)
	}
	db.db.TestOnlyWaitForCleaning()
	return nil
}

// tableBounds returns copies of the smallest and largest user keys of all
// tables, or ok false when there are none.
func (db *DB) tableBounds() (lo, hi []byte, ok bool, err error) {
	levels, err := db.db.SSTables()
	if err != nil {
		return nil, nil, false, kinds.Wrap(err)
	}
	for _, tables := range levels {
		for _, t := range tables {
			if !ok || bytes.Compare(t.Smallest.UserKey, lo) < 0 {
				lo = t.Smallest.UserKey
			}
			if !ok || bytes.Compare(t.Largest.UserKey, hi) > 0 {
				hi = t.Largest.UserKey
			}
			ok = true
		}
	}
	return bytes.Clone(lo), bytes.Clone(hi), ok, nil
}

var _ engine.Flusher = (*DB)(nil)

// Flush implements engine.Flusher: it writes the memtable to a table.
func (db *DB) Flush() error { return kinds.Wrap(db.db.Flush()) }

// Close implements engine.Backend. Pebble syncs the WAL on close.
func (db *DB) Close() error { return kinds.Wrap(db.db.Close()) }

// batch is a Pebble write batch, committed with one Apply.
type batch struct {
	db *DB
	b  *pebbledb.Batch
}

// NewBatch implements engine.Backend.
func (db *DB) NewBatch() engine.BackendBatch { return &batch{db: db, b: db.db.NewBatch()} }

// Put implements engine.BackendBatch. Set fails only on an indexed batch.
func (b *batch) Put(key, value []byte) { _ = b.b.Set(key, value, nil) }

// Delete implements engine.BackendBatch.
func (b *batch) Delete(key []byte) { _ = b.b.Delete(key, nil) }

// Reset empties the batch, keeping its memory.
func (b *batch) Reset() { b.b.Reset() }

// Commit implements engine.BackendBatch.
func (b *batch) Commit() error {
	if b.b.Empty() {
		return nil
	}
	if err := b.db.db.Apply(b.b, wo); err != nil {
		return kinds.Wrap(err)
	}
	b.b.Reset()
	return nil
}

// Close implements engine.BackendBatch.
func (b *batch) Close() error { return b.b.Close() }
