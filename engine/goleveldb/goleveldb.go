package goleveldb

import (
	"bytes"
	"errors"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/guard"
	"github.com/tsbench/storage/engine/internal/rangedel"
)

// name is the engine's registered name, its config table and marker.
const name = "goleveldb"

func init() {
	engine.Register(name, engine.Driver{
		Open: func(dir string, opts engine.Options) (engine.Engine, error) {
			return Open(dir, opts)
		},
		NewOptions: func() any { return new(Options) },
		Version:    Version,
	})
}

// DB is a goleveldb database behind the engine interface.
type DB struct {
	guard guard.Guard
	db    *leveldb.DB
	opt   *opt.Options
	wo    *opt.WriteOptions
}

var (
	_ engine.Engine       = (*DB)(nil)
	_ engine.Backgrounder = (*DB)(nil)
)

// Open opens or creates a goleveldb database in dir. Most callers go
// through engine.Open, which fills in defaults and guards the directory.
func Open(dir string, opts engine.Options) (*DB, error) {
	opts, err := opts.WithDefaults()
	if err != nil {
		return nil, err
	}
	own, err := engine.EngineOptions[Options](opts, name)
	if err != nil {
		return nil, err
	}
	o, err := own.withDefaults()
	if err != nil {
		return nil, err
	}
	lo := leveldbOptions(opts, o)
	ldb, err := leveldb.OpenFile(dir, lo)
	if err != nil {
		return nil, err
	}
	return &DB{db: ldb, opt: lo, wo: &opt.WriteOptions{Sync: opts.Sync == engine.SyncBatch}}, nil
}

// leveldbOptions maps the shared and goleveldb options onto opt.Options.
func leveldbOptions(opts engine.Options, o Options) *opt.Options {
	lo := &opt.Options{
		BlockCacheCapacity:     int(opts.CacheSize),
		WriteBuffer:            int(opts.WriteBufferSize),
		OpenFilesCacheCapacity: opts.MaxOpenFiles,
		Compression:            opt.SnappyCompression,
		BlockSize:              o.BlockSize,
		CompactionTableSize:    o.CompactionTableSize,
		CompactionTotalSize:    o.CompactionTotalSize,
		CompactionL0Trigger:    o.CompactionL0Trigger,
		WriteL0SlowdownTrigger: o.WriteL0SlowdownTrigger,
		WriteL0PauseTrigger:    o.WriteL0PauseTrigger,
	}
	if opts.DisableCompression {
		lo.Compression = opt.NoCompression
	}
	if opts.BloomBitsPerKey > 0 {
		lo.Filter = filter.NewBloomFilter(opts.BloomBitsPerKey)
	}
	return lo
}

// Get implements engine.Engine.
func (db *DB) Get(key []byte) ([]byte, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	// goleveldb returns its own copy.
	v, err := db.db.Get(key, nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return nil, engine.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

// Put implements engine.Engine.
func (db *DB) Put(key, value []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	return db.db.Put(key, value, db.wo)
}

// Delete implements engine.Engine.
func (db *DB) Delete(key []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	return db.db.Delete(key, db.wo)
}

// DeleteRange implements engine.Engine by scanning and deleting in
// batches: goleveldb has no range tombstone.
func (db *DB) DeleteRange(start, end []byte) error {
	return rangedel.ByScan(db, start, end)
}

// Compact implements engine.Engine with goleveldb's CompactRange, which
// flushes an overlapping memtable and compacts every overlapping level
// (nil bounds are unbounded). Replaced tables are deleted before it
// returns unless an open iterator still reads them.
func (db *DB) Compact(start, end []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	if start != nil && end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	return db.db.CompactRange(util.Range{Start: start, Limit: end})
}

// Close implements engine.Engine. Every commit has reached the OS (or the
// disk, under sync "batch") before it returned, so none is lost.
func (db *DB) Close() error {
	return db.guard.Close(db.db.Close)
}
