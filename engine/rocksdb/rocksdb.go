package rocksdb

// #cgo pkg-config: rocksdb
// #cgo CFLAGS: -I${SRCDIR}/../internal
// #cgo CXXFLAGS: -I${SRCDIR}/../internal
// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"bytes"
	"fmt"
	"unsafe"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/internal/levelcore" // rebuilds this package when levelcore.h changes
)

func init() {
	engine.Register("rocksdb", engine.Driver{
		Open:       func(dir string, o engine.Options) (engine.Backend, error) { return open(dir, o) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
		Build:      Build,
		Recognize:  recognize,
	})
}

// DB is a RocksDB database opened through RocksDB's C API: a backend that
// engine.Open wraps, which keeps calls from coming after Close and Close
// from coming while iterators or snapshots are open.
type DB struct {
	db *C.rocksdb_t // nil once closed
	cf *C.rocksdb_column_family_handle_t
	s  *settings
}

var (
	_ engine.Backend         = (*DB)(nil)
	_ engine.Flusher         = (*DB)(nil)
	_ engine.Backgrounder    = (*DB)(nil)
	_ engine.Snapshotter     = (*DB)(nil)
	_ engine.SizeEstimator   = (*DB)(nil)
	_ engine.MetricsReporter = (*DB)(nil)
	_ engine.Checkpointer    = (*DB)(nil)
)

// Open opens or creates a RocksDB database in dir, filling in o's
// defaults. Most callers use engine.Open("rocksdb", dir, opts), which
// wraps it with the engine contract's checks.
func Open(dir string, o engine.Options) (*DB, error) {
	o, err := o.WithDefaults()
	if err != nil {
		return nil, err
	}
	return open(dir, o)
}

// open is Open for options with their defaults filled in.
func open(dir string, o engine.Options) (*DB, error) {
	s, err := newSettings(o)
	if err != nil {
		return nil, err
	}
	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	var msg *C.char
	db := C.rocksdb_open(s.opts, cdir, &msg)
	if err := cError(msg); err != nil {
		s.free()
		return nil, err
	}
	return &DB{db: db, cf: C.rocksdb_get_default_column_family_handle(db), s: s}, nil
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

// cbound is cbytes for a range bound, where NULL means none: RocksDB
// takes an empty start as none, which is the smallest key anyway.
func cbound(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return cbytes(b)
}

// Get returns a copy of the value under key.
func (d *DB) Get(key []byte) ([]byte, error) { return d.get(d.s.ro, key) }

// get reads key with ro, the database's read options or a snapshot's.
func (d *DB) get(ro *C.rocksdb_readoptions_t, key []byte) ([]byte, error) {
	k, kn := cbytes(key)
	r := C.tsb_rocksdb_get(d.db, ro, k, kn)
	if err := cError(r.err); err != nil {
		return nil, err
	}
	if r.val == nil {
		return nil, engine.ErrNotFound
	}
	v := C.GoBytes(unsafe.Pointer(r.val), C.int(r.vlen))
	C.rocksdb_free(unsafe.Pointer(r.val))
	return v, nil
}

// Put stores value under key.
func (d *DB) Put(key, value []byte) error {
	k, kn := cbytes(key)
	v, vn := cbytes(value)
	return cError(C.tsb_rocksdb_put(d.db, d.s.wo, k, kn, v, vn))
}

// Delete removes key.
func (d *DB) Delete(key []byte) error {
	k, kn := cbytes(key)
	return cError(C.tsb_rocksdb_delete(d.db, d.s.wo, k, kn))
}

// DeleteRange removes the keys in [start, end) with one range tombstone,
// atomically. RocksDB needs an end key, so an unbounded end becomes the
// key just after the last key present: keys written after DeleteRange
// began beyond that point survive.
func (d *DB) DeleteRange(start, end []byte) error {
	if end == nil {
		last, ok, err := d.lastKey(start)
		if err != nil || !ok {
			return err
		}
		end = append(last, 0)
	}
	if bytes.Compare(start, end) >= 0 {
		return nil
	}
	wb := C.rocksdb_writebatch_create()
	defer C.rocksdb_writebatch_destroy(wb)
	s, sn := cbytes(start)
	e, en := cbytes(end)
	C.rocksdb_writebatch_delete_range(wb, s, sn, e, en)
	var msg *C.char
	C.rocksdb_write(d.db, d.s.wo, wb, &msg)
	return cError(msg)
}

// lastKey returns a copy of the largest key >= start, if any.
func (d *DB) lastKey(start []byte) ([]byte, bool, error) {
	it, err := d.newIterator(nil, engine.IterOptions{LowerBound: start})
	if err != nil {
		return nil, false, err
	}
	defer it.Close()
	if !it.Last() {
		return nil, false, it.Err()
	}
	return bytes.Clone(it.Key()), true, nil
}

// Compact flushes the memtables, then compacts [start, end) through every
// level, the last one included, so that deleted entries, point and range
// tombstones leave the disk.
func (d *DB) Compact(start, end []byte) error {
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	if err := d.Flush(); err != nil {
		return err
	}
	co := C.rocksdb_compactoptions_create()
	defer C.rocksdb_compactoptions_destroy(co)
	C.rocksdb_compactoptions_set_bottommost_level_compaction(co, bottommostForceOptimized)
	// An empty end was handled above.
	s, sn := cbound(start)
	e, en := cbound(end)
	C.rocksdb_compact_range_opt(d.db, co, s, sn, e, en)
	return nil
}

// bottommostForceOptimized is BottommostLevelCompaction::kForceOptimized:
// compact the last level too, without rewriting files the compaction
// just wrote there.
const bottommostForceOptimized = 3

// Flush writes the memtables to table files and waits for it.
func (d *DB) Flush() error {
	fo := C.rocksdb_flushoptions_create()
	defer C.rocksdb_flushoptions_destroy(fo)
	C.rocksdb_flushoptions_set_wait(fo, 1)
	var msg *C.char
	C.rocksdb_flush(d.db, fo, &msg)
	return cError(msg)
}

// busyProperties are the RocksDB integer properties that are non-zero
// while a flush or compaction runs or is due.
var busyProperties = []string{
	"rocksdb.mem-table-flush-pending",
	"rocksdb.compaction-pending",
	"rocksdb.num-running-flushes",
	"rocksdb.num-running-compactions",
}

// Busy reports whether a flush or compaction is running or pending.
func (d *DB) Busy() (bool, error) {
	for _, p := range busyProperties {
		v, err := d.intProperty(p)
		if err != nil {
			return false, err
		}
		if v > 0 {
			return true, nil
		}
	}
	return false, nil
}

// intProperty reads an integer property.
func (d *DB) intProperty(name string) (int64, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var out C.uint64_t
	if C.rocksdb_property_int(d.db, cname, &out) != 0 {
		return 0, fmt.Errorf("%w: property %s unavailable", ErrLibrary, name)
	}
	return int64(out), nil
}

// Close closes the database. Writes acknowledged before it are in the
// write-ahead log and are replayed by the next Open.
func (d *DB) Close() error {
	if d.db == nil {
		return engine.ErrClosed
	}
	C.rocksdb_column_family_handle_destroy(d.cf)
	C.rocksdb_close(d.db)
	d.db = nil
	d.s.free()
	return nil
}

// cError wraps and frees an error string RocksDB allocated; nil is no
// error.
func cError(s *C.char) error {
	if s == nil {
		return nil
	}
	defer C.rocksdb_free(unsafe.Pointer(s))
	return libError(C.GoString(s))
}

// libError is the error of a failure RocksDB describes with msg.
func libError(msg string) error { return kinds.Wrap(fmt.Errorf("%w: %s", ErrLibrary, msg)) }

// errNoMemory is C memory running out.
var errNoMemory = fmt.Errorf("%w: out of memory", ErrLibrary)
