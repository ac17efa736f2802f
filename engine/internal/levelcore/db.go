package levelcore

/*
#cgo CFLAGS: -I${SRCDIR}/..
#include <stdlib.h>
#include "levelcore.h"

static void *lc_options(const levelcore_ops *o, const levelcore_config *cfg) { return o->options(cfg); }
static void lc_options_free(const levelcore_ops *o, void *opts) { o->options_free(opts); }
static void *lc_open(const levelcore_ops *o, void *opts, const char *dir, char **err) { return o->open(opts, dir, err); }
static void lc_close(const levelcore_ops *o, void *db) { o->close(db); }
static void *lc_readoptions(const levelcore_ops *o, const void *snap, int verify) { return o->readoptions(snap, verify); }
static void lc_readoptions_free(const levelcore_ops *o, void *ro) { o->readoptions_free(ro); }
static void *lc_writeoptions(const levelcore_ops *o, int sync) { return o->writeoptions(sync); }
static void lc_writeoptions_free(const levelcore_ops *o, void *wo) { o->writeoptions_free(wo); }

static levelcore_value lc_get(const levelcore_ops *o, void *db, const void *ro, const char *k, size_t klen)
{
	return o->get(db, ro, k, klen);
}

static char *lc_put(const levelcore_ops *o, void *db, const void *wo, const char *k, size_t klen, const char *v, size_t vlen)
{
	return o->put(db, wo, k, klen, v, vlen);
}

static char *lc_del(const levelcore_ops *o, void *db, const void *wo, const char *k, size_t klen)
{
	return o->del(db, wo, k, klen);
}

static char *lc_delete_range(const levelcore_ops *o, void *db, const void *wo,
			     const char *s, size_t slen, const char *e, size_t elen)
{
	return o->delete_range(db, wo, s, slen, e, elen);
}

static char *lc_compact(const levelcore_ops *o, void *db, const char *s, size_t slen, const char *e, size_t elen)
{
	return o->compact(db, s, slen, e, elen);
}

static char *lc_flush(const levelcore_ops *o, void *db) { return o->flush(db); }
*/
import "C"

import (
	"bytes"
	"sync/atomic"
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/rangedel"
)

// Library is one library of the family, as its backend describes it.
type Library struct {
	// Name is the engine's, which starts the library's error messages.
	Name string
	// Ops is the address of the library's table of C calls,
	// tsb_<prefix>_ops of library.h.
	Ops unsafe.Pointer
	// Err is the backend's sentinel, which every failure the library
	// reports wraps.
	Err error
	// FlushBeforeDeleteRange says DeleteRange must write out a memtable
	// that may hold puts before it writes its tombstones, so that they
	// never share a table with the entries they delete: LevelDB's
	// CompactRange never rewrites the deepest level holding tables, and it
	// writes a memtable that overlaps nothing straight to level 2, where
	// such a table's deleted entries would stay.
	FlushBeforeDeleteRange bool
}

// Config is how a backend opens its library, beside the shared options.
type Config struct {
	// BlockSize is the uncompressed size of table blocks, the backend's
	// own option.
	BlockSize int
	// Verify makes every read check the checksums of the blocks it reads
	// (LevelDB's and HyperLevelDB's default is off, RocksDB's on).
	Verify bool
	// Tune, if not nil, sets the library's own options, those the shared
	// ones do not cover, on o, the tsb_<prefix>_options of library.h that
	// the database opens with.
	Tune func(o unsafe.Pointer) error
}

// DB is a database of the family, opened through its library's C API: a
// backend that engine.Open wraps, which keeps calls from coming after
// Close and Close from coming while iterators or snapshots are open.
type DB struct {
	lib  *Library
	ops  *C.levelcore_ops
	db   unsafe.Pointer // the library's database; nil once closed
	opts unsafe.Pointer // its tsb_<prefix>_options, freed after it
	// The read and write options every Get, write and iterator not of a
	// snapshot uses; read-only after Open, so goroutines share them.
	ro, wo unsafe.Pointer
	verify C.int
	// iterError is the error of an iterator's failure, made once so that
	// a new iterator costs no closure.
	iterError func(msg string) error
	// putsInMemtable is set by writes that store values and cleared when
	// the memtable is written out (Library.FlushBeforeDeleteRange).
	putsInMemtable atomic.Bool
}

var (
	_ engine.Flusher         = (*DB)(nil)
	_ engine.Snapshotter     = (*DB)(nil)
	_ engine.SizeEstimator   = (*DB)(nil)
	_ engine.MetricsReporter = (*DB)(nil)
)

// Open opens or creates lib's database in dir with opts, whose defaults
// are filled in, and cfg.
func Open(lib *Library, dir string, opts engine.Options, cfg Config) (*DB, error) {
	d := &DB{lib: lib, ops: (*C.levelcore_ops)(lib.Ops), verify: cbool(cfg.Verify)}
	d.iterError = func(msg string) error { return d.libError("iterate", msg) }
	c := C.levelcore_config{
		cache_size:        C.size_t(opts.CacheSize),
		write_buffer_size: C.size_t(opts.WriteBufferSize),
		block_size:        C.size_t(cfg.BlockSize),
		max_open_files:    C.int(opts.MaxOpenFiles),
		bloom_bits:        C.int(max(opts.BloomBitsPerKey, 0)),
		compress:          cbool(!opts.DisableCompression),
	}
	if d.opts = C.lc_options(d.ops, &c); d.opts == nil {
		return nil, d.libError("open", "out of memory")
	}
	if cfg.Tune != nil {
		if err := cfg.Tune(d.opts); err != nil {
			C.lc_options_free(d.ops, d.opts)
			return nil, err
		}
	}
	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	var msg *C.char
	d.db = C.lc_open(d.ops, d.opts, cdir, &msg)
	if err := d.cError("open", msg); err != nil {
		C.lc_options_free(d.ops, d.opts)
		return nil, err
	}
	d.ro = d.readOptions(nil)
	d.wo = C.lc_writeoptions(d.ops, cbool(opts.Sync == engine.SyncBatch))
	return d, nil
}

// readOptions returns read options reading snap, or the database as it is
// now when snap is nil.
func (d *DB) readOptions(snap unsafe.Pointer) unsafe.Pointer {
	return C.lc_readoptions(d.ops, snap, d.verify)
}

func (d *DB) freeReadOptions(ro unsafe.Pointer) { C.lc_readoptions_free(d.ops, ro) }

// Handle returns the library's database, for the calls of a backend's own
// interfaces; nil once closed.
func (d *DB) Handle() unsafe.Pointer { return d.db }

// nothing stands in for the data of an empty slice, so that C never sees
// a NULL key (memcmp with NULL is undefined even for zero bytes).
var nothing C.char

// cbytes returns b's data and length for C. b must hold no Go pointers,
// which byte slices never do, so cgo lets C read it during the call.
func cbytes(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return &nothing, 0
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// cbound is cbytes for a range bound, where NULL means none: an empty
// start is the smallest key anyway.
func cbound(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return cbytes(b)
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Get returns a copy of the value under key.
func (d *DB) Get(key []byte) ([]byte, error) { return d.get(d.ro, key) }

// get reads key with ro, the database's read options or a snapshot's.
func (d *DB) get(ro unsafe.Pointer, key []byte) ([]byte, error) {
	k, kn := cbytes(key)
	r := C.lc_get(d.ops, d.db, ro, k, kn)
	if err := d.cError("get", r.err); err != nil {
		return nil, err
	}
	if r.val == nil {
		return nil, engine.ErrNotFound
	}
	v := C.GoBytes(unsafe.Pointer(r.val), C.int(r.vlen))
	d.free(unsafe.Pointer(r.val))
	return v, nil
}

// Put stores value under key.
func (d *DB) Put(key, value []byte) error {
	d.storing()
	k, kn := cbytes(key)
	v, vn := cbytes(value)
	return d.cError("put", C.lc_put(d.ops, d.db, d.wo, k, kn, v, vn))
}

// storing notes a write that stores a value in the memtable.
func (d *DB) storing() {
	if d.lib.FlushBeforeDeleteRange {
		d.putsInMemtable.Store(true)
	}
}

// Delete removes key.
func (d *DB) Delete(key []byte) error {
	k, kn := cbytes(key)
	return d.cError("delete", C.lc_del(d.ops, d.db, d.wo, k, kn))
}

// DeleteRange removes the keys in [start, end): atomically with one range
// tombstone where the library has them (RocksDB), whose end an unbounded
// end becomes the key just after the last key present, and otherwise by
// scanning the range and deleting it in batches.
func (d *DB) DeleteRange(start, end []byte) error {
	if d.ops.delete_range == nil {
		return d.deleteByScan(start, end)
	}
	start, end, ok, err := rangedel.Span(d, start, end)
	if !ok {
		return err
	}
	s, sn := cbytes(start)
	e, en := cbytes(end)
	return d.cError("delete range", C.lc_delete_range(d.ops, d.db, d.wo, s, sn, e, en))
}

func (d *DB) deleteByScan(start, end []byte) error {
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	if d.putsInMemtable.Load() {
		if err := d.Flush(); err != nil {
			return err
		}
	}
	return rangedel.ByScan(d, start, end)
}

// Compact compacts [start, end) through every level, after writing the
// memtable out, so deleted entries and their tombstones leave the disk.
func (d *DB) Compact(start, end []byte) error {
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil // an empty end included
	}
	s, sn := cbound(start)
	e, en := cbound(end)
	return d.cError("compact", C.lc_compact(d.ops, d.db, s, sn, e, en))
}

// Flush writes the memtable to a table file and returns once it is
// written (engine.Flusher). The log already holds every write, so this
// moves work rather than adding durability.
func (d *DB) Flush() error {
	d.putsInMemtable.Store(false)
	return d.cError("flush", C.lc_flush(d.ops, d.db))
}

// Close closes the database. Writes acknowledged before it are in the log
// and are replayed by the next Open.
func (d *DB) Close() error {
	if d.db == nil {
		return engine.ErrClosed
	}
	C.lc_close(d.ops, d.db)
	d.db = nil
	d.freeReadOptions(d.ro)
	C.lc_writeoptions_free(d.ops, d.wo)
	C.lc_options_free(d.ops, d.opts)
	return nil
}
