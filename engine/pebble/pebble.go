package pebble

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"

	pebbledb "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fault"
	"github.com/tsbench/storage/engine/internal/rangedel"
)

func init() {
	engine.RegisterBackend("pebble", open, engine.Driver{
		Version:   Version,
		Build:     Build,
		Recognize: recognize,
		// Pebble panics once a batch's encoding reaches 4 GiB (its
		// maxBatchSize, a Put included); a quarter of that is left for
		// the encoding's header and few bytes per operation.
		// Its EstimateDiskUsage reads the tables alone.
		Limits: engine.Limits{MaxValueSize: 3 << 30, MaxBatchSize: 3 << 30, EstimateExcludesMemtable: true},
	})
}

// DB is a Pebble database behind the engine interface.
type DB struct {
	db     *pebbledb.DB
	wo     *pebbledb.WriteOptions
	stalls stalls
	// noSpace notes background work that failed on a full disk.
	noSpace *noSpace
	// stopped is set when a call met one of Pebble's fatal errors or gave
	// up on a full disk (fatal.go, nospace.go) and returned an error
	// wrapping engine.ErrBroken. engine.Open's wrapper then makes no call
	// but Close, which must leave Pebble as it is.
	stopped atomic.Bool
}

// kinds maps Pebble's errors onto the engine's sentinels. Pebble reports
// a directory locked by another process with the flock error, and one
// locked in this process with a message of its own.
var kinds = fault.Kinds{
	Corrupt: pebbledb.IsCorruptionError,
	Locked: func(err error) bool {
		return errors.Is(err, syscall.EWOULDBLOCK) || strings.Contains(err.Error(), "lock held by current process")
	},
}

// Open opens or creates a Pebble database in dir, an existing directory,
// with opts, resolved first as engine.Open resolves them: the backend
// alone, without the directory lock and the contract's rules that
// engine.Open("pebble", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("pebble", dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in o.
func open(dir string, opts engine.Options, o Options) (*DB, error) {
	po, err := pebbleOptions(opts, o)
	if err != nil {
		return nil, err
	}
	// Open takes its own reference on the cache; ours is dropped either way.
	defer po.Cache.Unref()
	// Under "none" too: the sync only waits for the WAL write (walsync.go).
	db := &DB{wo: pebbledb.Sync, noSpace: newNoSpace()}
	po.AddEventListener(db.stalls.listener())
	po.AddEventListener(db.noSpace.listener())
	if db.db, err = pebbledb.Open(dir, po); err != nil {
		return nil, kinds.Wrap(err)
	}
	return db, nil
}

// cacheSize is the size of Pebble's block cache: cache_size for blocks,
// as the other engines' caches have, plus the memtables Pebble charges
// to it (see the package doc).
func cacheSize(opts engine.Options, o Options) int64 {
	return opts.CacheSize + int64(o.MemTableStopWritesThreshold)*opts.WriteBufferSize
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
		Cache:                       pebbledb.NewCache(cacheSize(opts, o)),
		MemTableSize:                uint64(opts.WriteBufferSize),
		MemTableStopWritesThreshold: o.MemTableStopWritesThreshold,
		MaxOpenFiles:                opts.MaxOpenFiles,
		L0CompactionThreshold:       o.L0CompactionThreshold,
		L0StopWritesThreshold:       o.L0StopWritesThreshold,
		LBaseMaxBytes:               o.LBaseMaxBytes,
		// Pebble runs one compaction, and more, up to the cap, only when
		// L0 or the compaction debt grows.
		CompactionConcurrencyRange: func() (int, int) { return 1, o.MaxConcurrentCompactions },
		// New stores get the newest on-disk format this release supports
		// (not the experimental ones); Pebble's default is the oldest.
		FormatMajorVersion: pebbledb.FormatNewest,
		// Pebble logs routine events (such as each WAL replayed on open)
		// to the standard logger, which would garble a benchmark's output;
		// only errors are worth showing.
		Logger: quietLogger{},
	}
	// L0 gets the target size; each level from the base level down doubles
	// the one above (EnsureDefaults fills them in).
	po.TargetFileSizes[0] = o.TargetFileSize
	compression := sstable.SnappyCompression
	if opts.DisableCompression {
		compression = sstable.NoCompression
	}
	var filter pebbledb.FilterPolicy
	if opts.BloomBitsPerKey > 0 {
		filter = bloom.FilterPolicy(opts.BloomBitsPerKey)
	}
	for i := range po.Levels {
		l := &po.Levels[i]
		l.BlockSize = o.BlockSize
		l.Compression = func() *sstable.CompressionProfile { return compression }
		l.FilterPolicy = filter
	}
	if opts.Sync != engine.SyncBatch {
		po.FS = walNoSyncFS{vfs.Default} // see walsync.go
	}
	po.EnsureDefaults()
	if err := po.Validate(); err != nil {
		po.Cache.Unref()
		return nil, fmt.Errorf("%w: pebble: %v", engine.ErrInvalidOptions, err)
	}
	return po, nil
}

// Get implements engine.Backend.
func (db *DB) Get(key []byte) ([]byte, error) {
	return get(db.db, key)
}

// get reads key from the database or a snapshot.
func get(r pebbledb.Reader, key []byte) ([]byte, error) {
	v, closer, err := r.Get(key)
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
func (db *DB) Put(key, value []byte) (err error) {
	defer db.stop(&err)
	return kinds.Wrap(db.db.Set(key, value, db.wo))
}

// Delete implements engine.Backend.
func (db *DB) Delete(key []byte) (err error) {
	defer db.stop(&err)
	return kinds.Wrap(db.db.Delete(key, db.wo))
}

// DeleteRange implements engine.Backend with one Pebble range tombstone.
func (db *DB) DeleteRange(start, end []byte) (err error) {
	defer db.stop(&err)
	// A tombstone needs an end; just past the largest key will do.
	start, end, ok, err := rangedel.Span(db, start, end)
	if err != nil || !ok {
		return err
	}
	return kinds.Wrap(db.db.DeleteRange(start, end, db.wo))
}

// Compact implements engine.Backend. It flushes the memtable first so that
// recent deletes reach the tables (and the WAL holding them can go), then
// compacts every level overlapping the range and waits for the replaced
// files to be deleted, so the directory size reflects the result.
func (db *DB) Compact(start, end []byte) (err error) {
	defer db.stop(&err)
	if err := db.wait(db.db.Flush); err != nil {
		return kinds.Wrap(err)
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
	if err := db.wait(func() error { return db.db.Compact(context.Background(), start, end, true) }); err != nil {
		return kinds.Wrap(err)
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

var (
	_ engine.Flusher      = (*DB)(nil)
	_ engine.Backgrounder = (*DB)(nil)
)

// Flush implements engine.Flusher: it writes the memtable to a table.
func (db *DB) Flush() (err error) {
	defer db.stop(&err)
	return kinds.Wrap(db.wait(db.db.Flush))
}

// Busy implements engine.Backgrounder. Pebble is busy while a flush or
// compaction runs or a level above the bottom has a score above 0 (Pebble
// scores a level 0 unless it is due for compaction). Queued immutable
// memtables do not count: Pebble holds small ones unflushed until their
// total passes half the write buffer, so they wait for more writes, not
// for background work. Pebble's
// EstimatedDebt is not used either: it stays above zero whenever L0 and
// the base level both hold data, even when no compaction is due.
func (db *DB) Busy() (bool, error) {
	m := db.db.Metrics()
	if m.Compact.NumInProgress > 0 || m.Flush.NumInProgress > 0 {
		return true, nil
	}
	// The bottom level is never compacted further, whatever its score.
	for _, l := range m.Levels[:len(m.Levels)-1] {
		if l.Score > 0 {
			return true, nil
		}
	}
	return false, nil
}

// Close implements engine.Backend. Pebble syncs the WAL on close, so no
// acknowledged write is lost whatever the sync profile. Once Pebble
// stopped it leaves Pebble as it is, since Pebble would wait forever for
// the commit mutex it panicked holding or for the flush it retries: its
// files, lock included, stay open until the process exits.
func (db *DB) Close() (err error) {
	if db.stopped.Load() {
		return nil
	}
	defer db.stop(&err)
	return kinds.Wrap(db.db.Close())
}
