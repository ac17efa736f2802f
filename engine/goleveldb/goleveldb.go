package goleveldb

import (
	"bytes"
	"errors"
	"syscall"

	"github.com/syndtr/goleveldb/leveldb"
	lerrors "github.com/syndtr/goleveldb/leveldb/errors"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/storage"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fault"
	"github.com/tsbench/storage/engine/internal/rangedel"
)

func init() {
	// SizeOf reads the tables alone.
	engine.RegisterBackend("goleveldb", open, engine.Driver{Version: Version, Build: Build, Limits: engine.Limits{EstimateExcludesMemtable: true}})
}

// DB is a goleveldb database behind the engine interface.
type DB struct {
	db  *leveldb.DB
	opt *opt.Options
	wo  *opt.WriteOptions
}

// kinds maps goleveldb's errors onto the engine's sentinels: its
// corruption errors, and its lock, held in this process or (as the flock
// error) in another.
var kinds = fault.Kinds{
	Corrupt: lerrors.IsCorrupted,
	Locked: func(err error) bool {
		return errors.Is(err, storage.ErrLocked) || errors.Is(err, syscall.EWOULDBLOCK)
	},
}

// Open opens or creates a goleveldb database in dir, an existing
// directory, with opts, resolved first as engine.Open resolves them: the
// backend alone, without the directory lock and the contract's rules that
// engine.Open("goleveldb", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("goleveldb", dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in o.
func open(dir string, opts engine.Options, o Options) (*DB, error) {
	lo := leveldbOptions(opts, o)
	ldb, err := leveldb.OpenFile(dir, lo)
	if err != nil {
		return nil, kinds.Wrap(err)
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

// Get implements engine.Backend.
func (db *DB) Get(key []byte) ([]byte, error) { return get(db.db, key) }

// get reads key from the database or a snapshot, which return their own
// copy.
func get(r interface {
	Get([]byte, *opt.ReadOptions) ([]byte, error)
}, key []byte) ([]byte, error) {
	v, err := r.Get(key, nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return nil, engine.ErrNotFound
	}
	if err != nil {
		return nil, kinds.Wrap(err)
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

// Put implements engine.Backend.
func (db *DB) Put(key, value []byte) error {
	return kinds.Wrap(db.db.Put(key, value, db.wo))
}

// Delete implements engine.Backend.
func (db *DB) Delete(key []byte) error {
	return kinds.Wrap(db.db.Delete(key, db.wo))
}

// DeleteRange implements engine.Backend by scanning and deleting in
// batches: goleveldb has no range tombstone.
func (db *DB) DeleteRange(start, end []byte) error {
	return rangedel.ByScan(db, start, end)
}

// Compact implements engine.Backend with goleveldb's CompactRange, which
// flushes an overlapping memtable and compacts every overlapping level
// (nil bounds are unbounded). Replaced tables are deleted before it
// returns unless an open iterator still reads them.
func (db *DB) Compact(start, end []byte) error {
	if start != nil && end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	return kinds.Wrap(db.db.CompactRange(util.Range{Start: start, Limit: end}))
}

// Close implements engine.Backend. Every commit has reached the OS (or the
// disk, under sync "batch") before it returned, so none is lost.
func (db *DB) Close() error { return kinds.Wrap(db.db.Close()) }
