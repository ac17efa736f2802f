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
	"github.com/tsbench/storage/engine/internal/cursor"
	"github.com/tsbench/storage/engine/internal/guard"
	_ "github.com/tsbench/storage/engine/internal/levelcore" // rebuilds this package when levelcore.h changes
)

func init() {
	engine.Register("rocksdb", engine.Driver{
		Open:       func(dir string, o engine.Options) (engine.Engine, error) { return Open(dir, o) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
		Build:      Build,
		Recognize:  recognize,
	})
}

// DB is a RocksDB database opened through RocksDB's C API.
type DB struct {
	guard guard.Guard
	db    *C.rocksdb_t
	s     *settings
}

var (
	_ engine.Engine       = (*DB)(nil)
	_ engine.Flusher      = (*DB)(nil)
	_ engine.Backgrounder = (*DB)(nil)
)

// Open opens or creates a RocksDB database in dir. Most callers use
// engine.Open("rocksdb", dir, opts), which fills in defaults first.
func Open(dir string, o engine.Options) (*DB, error) {
	o, err := o.WithDefaults()
	if err != nil {
		return nil, err
	}
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
	return &DB{db: db, s: s}, nil
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
func (d *DB) Get(key []byte) ([]byte, error) {
	if err := d.guard.Enter(); err != nil {
		return nil, err
	}
	defer d.guard.Exit()
	k, kn := cbytes(key)
	r := C.tsb_rocksdb_get(d.db, d.s.ro, k, kn)
	if err := cError(r.err); err != nil {
		return nil, err
	}
	if r.val == nil {
		return nil, engine.ErrNotFound
	}
	v := make([]byte, int(r.vlen))
	copy(v, unsafe.Slice((*byte)(unsafe.Pointer(r.val)), int(r.vlen)))
	C.rocksdb_free(unsafe.Pointer(r.val))
	return v, nil
}

// Put stores value under key.
func (d *DB) Put(key, value []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	k, kn := cbytes(key)
	v, vn := cbytes(value)
	return cError(C.tsb_rocksdb_put(d.db, d.s.wo, k, kn, v, vn))
}

// Delete removes key.
func (d *DB) Delete(key []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	k, kn := cbytes(key)
	return cError(C.tsb_rocksdb_delete(d.db, d.s.wo, k, kn))
}

// DeleteRange removes the keys in [start, end) with one range tombstone,
// atomically. RocksDB needs an end key, so an unbounded end becomes the
// key just after the last key present: keys written after DeleteRange
// began beyond that point survive.
func (d *DB) DeleteRange(start, end []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
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
	s, sn := cbytes(start)
	c := C.tsb_rocksdb_cursor_new(d.db, nil, s, sn, 1, nil, 0, 0)
	if c == nil {
		return nil, false, fmt.Errorf("%w: out of memory for an iterator", ErrLibrary)
	}
	defer C.tsb_rocksdb_cursor_free(c)
	var it cursor.Iter
	it.Init(source{c})
	if !it.Last() {
		return nil, false, it.Err()
	}
	return bytes.Clone(it.Key()), true, nil
}

// Compact flushes the memtables, then compacts [start, end) through every
// level, the last one included, so that deleted entries, point and range
// tombstones leave the disk.
func (d *DB) Compact(start, end []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	if err := d.flush(); err != nil {
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
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	return d.flush()
}

func (d *DB) flush() error {
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
	if err := d.guard.Enter(); err != nil {
		return false, err
	}
	defer d.guard.Exit()
	for _, p := range busyProperties {
		v, ok := d.intProperty(p)
		if !ok {
			return false, fmt.Errorf("%w: property %s unavailable", ErrLibrary, p)
		}
		if v > 0 {
			return true, nil
		}
	}
	return false, nil
}

// intProperty reads an integer property; ok is false if RocksDB has none
// by that name.
func (d *DB) intProperty(name string) (v uint64, ok bool) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var out C.uint64_t
	ok = C.rocksdb_property_int(d.db, cname, &out) == 0
	return uint64(out), ok
}

// Close closes the database. Writes acknowledged before it are in the
// write-ahead log and are replayed by the next Open.
func (d *DB) Close() error {
	return d.guard.Close(func() error {
		C.rocksdb_close(d.db)
		d.s.free()
		return nil
	})
}

// cError wraps and frees an error string RocksDB allocated; nil is no
// error.
func cError(s *C.char) error {
	if s == nil {
		return nil
	}
	defer C.rocksdb_free(unsafe.Pointer(s))
	return kinds.Wrap(fmt.Errorf("%w: %s", ErrLibrary, C.GoString(s)))
}
