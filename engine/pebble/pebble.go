package pebble

import (
	"bytes"
	"errors"
	"fmt"
	"log"

	pebbledb "github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/guard"
)

// name is the engine's registered name, its config table and marker.
const name = "pebble"

func init() {
	engine.Register(name, engine.Driver{
		Open: func(dir string, opts engine.Options) (engine.Engine, error) {
			return Open(dir, opts)
		},
		NewOptions: func() any { return new(Options) },
		Version:    Version,
	})
}

// DB is a Pebble database behind the engine interface.
type DB struct {
	guard guard.Guard
	db    *pebbledb.DB
	wo    *pebbledb.WriteOptions
}

var (
	_ engine.Engine       = (*DB)(nil)
	_ engine.Flusher      = (*DB)(nil)
	_ engine.Backgrounder = (*DB)(nil)
)

// Open opens or creates a Pebble database in dir. Most callers go through
// engine.Open, which fills in defaults and guards the directory.
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
	po, err := pebbleOptions(opts, o)
	if err != nil {
		return nil, err
	}
	// Open takes its own reference on the cache; ours is dropped either way.
	defer po.Cache.Unref()
	pdb, err := pebbledb.Open(dir, po)
	if err != nil {
		return nil, err
	}
	wo := pebbledb.NoSync
	if opts.Sync == engine.SyncBatch {
		wo = pebbledb.Sync
	}
	return &DB{db: pdb, wo: wo}, nil
}

// maxMemTable is Pebble's limit on MemTableSize (4 GiB on 64-bit hosts).
const maxMemTable = 4<<30 - 1

// pebbleOptions maps the shared and Pebble options onto pebble.Options.
// The caller owns one reference on the returned options' Cache.
func pebbleOptions(opts engine.Options, o Options) (*pebbledb.Options, error) {
	if opts.WriteBufferSize > maxMemTable {
		return nil, fmt.Errorf("%w: pebble: write_buffer_size %d exceeds Pebble's limit of %d; lower it", engine.ErrInvalidOptions, opts.WriteBufferSize, maxMemTable)
	}
	po := &pebbledb.Options{
		Cache:                       pebbledb.NewCache(opts.CacheSize),
		MemTableSize:                uint64(opts.WriteBufferSize),
		MemTableStopWritesThreshold: o.MemTableStopWritesThreshold,
		MaxOpenFiles:                opts.MaxOpenFiles,
		L0CompactionThreshold:       o.L0CompactionThreshold,
		L0StopWritesThreshold:       o.L0StopWritesThreshold,
		LBaseMaxBytes:               o.LBaseMaxBytes,
		MaxConcurrentCompactions:    func() int { return o.MaxConcurrentCompactions },
		// New stores get the newest on-disk format this release knows.
		FormatMajorVersion: pebbledb.FormatNewest,
		// Pebble logs routine events (such as each WAL replayed on open)
		// to the standard logger, which would garble a benchmark's output;
		// only background errors are worth showing.
		Logger: quietLogger{},
		EventListener: &pebbledb.EventListener{
			BackgroundError: func(err error) { log.Printf("pebble: background error: %v", err) },
		},
	}
	compression := pebbledb.SnappyCompression
	if opts.DisableCompression {
		compression = pebbledb.NoCompression
	}
	var filter pebbledb.FilterPolicy
	if opts.BloomBitsPerKey > 0 {
		filter = bloom.FilterPolicy(opts.BloomBitsPerKey)
	}
	po.Levels = make([]pebbledb.LevelOptions, 7)
	for i := range po.Levels {
		l := &po.Levels[i]
		l.BlockSize = o.BlockSize
		l.Compression = compression
		l.FilterPolicy = filter
		l.FilterType = pebbledb.TableFilter
		l.TargetFileSize = o.TargetFileSize << i
	}
	po.EnsureDefaults()
	if err := po.Validate(); err != nil {
		po.Cache.Unref()
		return nil, fmt.Errorf("%w: pebble: %v", engine.ErrInvalidOptions, err)
	}
	return po, nil
}

// Get implements engine.Engine.
func (db *DB) Get(key []byte) ([]byte, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	v, closer, err := db.db.Get(key)
	if errors.Is(err, pebbledb.ErrNotFound) {
		return nil, engine.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(v)
	if out == nil {
		out = []byte{}
	}
	return out, closer.Close()
}

// Put implements engine.Engine.
func (db *DB) Put(key, value []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	return db.db.Set(key, value, db.wo)
}

// Delete implements engine.Engine.
func (db *DB) Delete(key []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	return db.db.Delete(key, db.wo)
}

// DeleteRange implements engine.Engine with one Pebble range tombstone.
func (db *DB) DeleteRange(start, end []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	if start == nil {
		start = []byte{}
	}
	if end == nil {
		// A tombstone needs an end; just past the largest key will do.
		last, ok, err := db.lastKey(start)
		if err != nil || !ok {
			return err
		}
		end = append(last, 0)
	}
	if bytes.Compare(start, end) >= 0 {
		return nil
	}
	return db.db.DeleteRange(start, end, db.wo)
}

// lastKey returns a copy of the largest live key >= lower, if any.
func (db *DB) lastKey(lower []byte) ([]byte, bool, error) {
	it, err := db.db.NewIter(&pebbledb.IterOptions{LowerBound: lower})
	if err != nil {
		return nil, false, err
	}
	var last []byte
	ok := it.Last()
	if ok {
		last = bytes.Clone(it.Key())
	}
	return last, ok, it.Close()
}

// Compact implements engine.Engine. It flushes the memtable first so that
// recent deletes reach the tables (and the WAL holding them can go), then
// compacts every level overlapping the range and waits for the replaced
// files to be deleted, so the directory size reflects the result.
func (db *DB) Compact(start, end []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	if err := db.db.Flush(); err != nil {
		return err
	}
	if start == nil || end == nil {
		// Pebble needs real bounds: take them from the tables, which also
		// cover deleted keys an iterator would no longer show.
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
		return err
	}
	// Obsolete tables are deleted by a background goroutine; this only
	// waits for deletions already queued (despite its name it is safe
	// outside tests).
	db.db.TestOnlyWaitForCleaning()
	return nil
}

// tableBounds returns copies of the smallest and largest user keys of all
// tables, or ok false when there are none.
func (db *DB) tableBounds() (lo, hi []byte, ok bool, err error) {
	levels, err := db.db.SSTables()
	if err != nil {
		return nil, nil, false, err
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

// Flush implements engine.Flusher: it writes the memtable to a table.
func (db *DB) Flush() error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	return db.db.Flush()
}

// Busy implements engine.Backgrounder. Pebble is busy while a flush or
// compaction runs or a level scores at least 1 (Pebble's own trigger for
// starting a compaction). Queued immutable memtables do not count: Pebble
// holds small ones unflushed until their total passes half the write
// buffer, so they wait for more writes, not for background work. Pebble's
// EstimatedDebt is not used either: it stays above zero whenever L0 and
// the base level both hold data, even when no compaction is due.
func (db *DB) Busy() (bool, error) {
	if err := db.guard.Enter(); err != nil {
		return false, err
	}
	defer db.guard.Exit()
	m := db.db.Metrics()
	if m.Compact.NumInProgress > 0 || m.Flush.NumInProgress > 0 {
		return true, nil
	}
	// The bottom level is never compacted further, whatever its score.
	for _, l := range m.Levels[:len(m.Levels)-1] {
		if l.Score >= 1 {
			return true, nil
		}
	}
	return false, nil
}

// Close implements engine.Engine. Pebble syncs the WAL on close, so no
// acknowledged write is lost whatever the sync profile.
func (db *DB) Close() error {
	return db.guard.Close(db.db.Close)
}

// quietLogger drops Pebble's informational messages but still stops the
// process on the fatal ones, as Pebble's default logger does.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}

func (quietLogger) Fatalf(format string, args ...any) { pebbledb.DefaultLogger.Fatalf(format, args...) }
