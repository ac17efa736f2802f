package hyperleveldb

/*
#cgo pkg-config: hyperleveldb
#cgo CFLAGS: -I${SRCDIR}/../internal
#include <stdlib.h>
#include "binding.h"
*/
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/internal/levelcore" // rebuilds this package when levelcore.h changes
	"github.com/tsbench/storage/engine/internal/rangedel"
)

// name is the engine's registered name, its config table and marker.
const name = "hyperleveldb"

func init() {
	engine.Register(name, engine.Driver{
		Open: func(dir string, opts engine.Options) (engine.Backend, error) {
			return open(dir, opts)
		},
		NewOptions: func() any { return new(Options) },
		Version:    Version,
		Build:      Build,
	})
}

// DB is a HyperLevelDB database: a backend that engine.Open wraps, which
// keeps calls from coming after Close and Close from coming while
// iterators or snapshots are open.
type DB struct {
	db *C.hyperleveldb_t // nil once closed
	// The objects below are read-only after Open, so every goroutine
	// shares them; Close frees them after the database.
	opts   *C.hyperleveldb_options_t
	cache  *C.hyperleveldb_cache_t
	filter *C.hyperleveldb_filterpolicy_t // nil without a bloom filter
	ro     *C.hyperleveldb_readoptions_t
	wo     *C.hyperleveldb_writeoptions_t
	// verify is Options.VerifyChecksums, for the read options of snapshots.
	verify C.uchar
}

var (
	_ engine.Backend         = (*DB)(nil)
	_ engine.Flusher         = (*DB)(nil)
	_ engine.Snapshotter     = (*DB)(nil)
	_ engine.SizeEstimator   = (*DB)(nil)
	_ engine.MetricsReporter = (*DB)(nil)
)

// Open opens or creates a HyperLevelDB database in dir, filling in opts'
// defaults. Most callers go through engine.Open, which wraps it with the
// engine contract's checks and guards the directory.
func Open(dir string, opts engine.Options) (*DB, error) {
	opts, err := opts.WithDefaults()
	if err != nil {
		return nil, err
	}
	return open(dir, opts)
}

// open is Open for options with their defaults filled in.
func open(dir string, opts engine.Options) (*DB, error) {
	own, err := engine.OptionsFor[Options](opts, name)
	if err != nil {
		return nil, err
	}
	o, err := own.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkShared(opts); err != nil {
		return nil, err
	}
	db := &DB{
		opts:  C.hyperleveldb_options_create(),
		cache: C.hyperleveldb_cache_create_lru(C.size_t(opts.CacheSize)),
		ro:    C.hyperleveldb_readoptions_create(),
		wo:    C.hyperleveldb_writeoptions_create(),
	}
	C.hyperleveldb_options_set_create_if_missing(db.opts, 1)
	C.hyperleveldb_options_set_cache(db.opts, db.cache)
	C.hyperleveldb_options_set_write_buffer_size(db.opts, C.size_t(opts.WriteBufferSize))
	C.hyperleveldb_options_set_max_open_files(db.opts, C.int(opts.MaxOpenFiles))
	compression := C.hyperleveldb_snappy_compression
	if opts.DisableCompression {
		compression = C.hyperleveldb_no_compression
	}
	C.hyperleveldb_options_set_compression(db.opts, C.int(compression))
	if opts.BloomBitsPerKey > 0 {
		db.filter = C.hyperleveldb_filterpolicy_create_bloom(C.int(opts.BloomBitsPerKey))
		C.hyperleveldb_options_set_filter_policy(db.opts, db.filter)
	}
	C.hyperleveldb_options_set_block_size(db.opts, C.size_t(o.BlockSize))
	C.hyperleveldb_options_set_block_restart_interval(db.opts, C.int(o.BlockRestartInterval))
	C.hyperleveldb_options_set_paranoid_checks(db.opts, cbool(o.ParanoidChecks))
	db.verify = cbool(o.VerifyChecksums)
	C.hyperleveldb_readoptions_set_verify_checksums(db.ro, db.verify)
	C.hyperleveldb_writeoptions_set_sync(db.wo, cbool(opts.Sync == engine.SyncBatch))

	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	var msg *C.char
	db.db = C.hyperleveldb_open(db.opts, cdir, &msg)
	if err := cError("open", msg); err != nil {
		db.free()
		return nil, err
	}
	return db, nil
}

// free releases the C objects Open made, after the database is closed.
func (db *DB) free() {
	C.hyperleveldb_writeoptions_destroy(db.wo)
	C.hyperleveldb_readoptions_destroy(db.ro)
	C.hyperleveldb_options_destroy(db.opts)
	if db.filter != nil {
		C.hyperleveldb_filterpolicy_destroy(db.filter)
	}
	C.hyperleveldb_cache_destroy(db.cache)
}

func cbool(b bool) C.uchar {
	if b {
		return 1
	}
	return 0
}

// empty stands in for the data of an empty slice, so that C never sees a
// NULL key (memcmp with NULL is undefined even for zero bytes).
var empty C.char

// cbytes returns b's data and length for C. b must hold no Go pointers,
// which byte slices never do, so cgo lets C read it during the call.
func cbytes(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return &empty, 0
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// Get implements engine.Backend.
func (db *DB) Get(key []byte) ([]byte, error) { return db.get(db.ro, key) }

// get reads key with ro, the database's read options or a snapshot's.
func (db *DB) get(ro *C.hyperleveldb_readoptions_t, key []byte) ([]byte, error) {
	k, kn := cbytes(key)
	r := C.tsb_hyperleveldb_get(db.db, ro, k, kn)
	if err := cError("get", r.err); err != nil {
		return nil, err
	}
	if r.val == nil {
		return nil, engine.ErrNotFound
	}
	v := C.GoBytes(unsafe.Pointer(r.val), C.int(r.vlen))
	C.free(unsafe.Pointer(r.val))
	return v, nil
}

// Put implements engine.Backend.
func (db *DB) Put(key, value []byte) error {
	k, kn := cbytes(key)
	v, vn := cbytes(value)
	return cError("put", C.tsb_hyperleveldb_put(db.db, db.wo, k, kn, v, vn))
}

// Delete implements engine.Backend.
func (db *DB) Delete(key []byte) error {
	k, kn := cbytes(key)
	return cError("delete", C.tsb_hyperleveldb_delete(db.db, db.wo, k, kn))
}

// DeleteRange implements engine.Backend by scanning and deleting in
// batches: HyperLevelDB has no range tombstones.
func (db *DB) DeleteRange(start, end []byte) error {
	return rangedel.ByScan(db, start, end)
}

// Compact implements engine.Backend. It writes the memtable out, so recent
// deletes are compacted too, then merges every level overlapping the range
// down to the deepest one, where deleted entries are dropped; when all
// tables sit in one level it rewrites that level one level down instead
// (see scripts/hyperleveldb-compact.cc). The end bound is inclusive there,
// which only compacts a little more than asked.
func (db *DB) Compact(start, end []byte) error {
	var s, e *C.char
	var sn, en C.size_t
	if start != nil {
		s, sn = cbytes(start)
	}
	if end != nil {
		e, en = cbytes(end)
	}
	C.hyperleveldb_tsb_compact_range(db.db, s, sn, e, en)
	return nil
}

// Flush implements engine.Flusher: it writes the memtable to a table.
func (db *DB) Flush() error {
	C.tsb_hyperleveldb_flush_memtable(db.db)
	return nil
}

// Close implements engine.Backend. Every acknowledged write is already in
// the log file, which HyperLevelDB replays on the next Open.
func (db *DB) Close() error {
	if db.db == nil {
		return engine.ErrClosed
	}
	C.hyperleveldb_close(db.db)
	db.db = nil
	db.free()
	return nil
}
