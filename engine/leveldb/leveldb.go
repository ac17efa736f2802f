package leveldb

// #cgo pkg-config: leveldb
// #cgo CFLAGS: -I${SRCDIR}/../internal
// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"bytes"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/internal/levelcore" // rebuilds this package when levelcore.h changes
	"github.com/tsbench/storage/engine/internal/rangedel"
)

func init() {
	engine.Register("leveldb", engine.Driver{
		Open:       func(dir string, o engine.Options) (engine.Backend, error) { return open(dir, o) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
		Build:      Build,
	})
}

// DB is a LevelDB database opened through LevelDB's C API: a backend that
// engine.Open wraps, which keeps calls from coming after Close and Close
// from coming while iterators or snapshots are open.
type DB struct {
	db *C.leveldb_t // nil once closed
	s  *settings
	// putsInMemtable is set by writes that store values and cleared when
	// the memtable is written out; see DeleteRange.
	putsInMemtable atomic.Bool
}

var (
	_ engine.Backend         = (*DB)(nil)
	_ engine.Flusher         = (*DB)(nil)
	_ engine.Snapshotter     = (*DB)(nil)
	_ engine.SizeEstimator   = (*DB)(nil)
	_ engine.MetricsReporter = (*DB)(nil)
)

// Open opens or creates a LevelDB database in dir, filling in o's
// defaults. Most callers use engine.Open("leveldb", dir, opts), which
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
	db := C.leveldb_open(s.opts, cdir, &msg)
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

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Get returns a copy of the value under key.
func (d *DB) Get(key []byte) ([]byte, error) { return d.get(d.s.ro, key) }

// get reads key with ro, the database's read options or a snapshot's.
func (d *DB) get(ro *C.leveldb_readoptions_t, key []byte) ([]byte, error) {
	k, kn := cbytes(key)
	r := C.tsb_leveldb_get(d.db, ro, k, kn)
	if err := cError(r.err); err != nil {
		return nil, err
	}
	if r.val == nil {
		return nil, engine.ErrNotFound
	}
	v := C.GoBytes(unsafe.Pointer(r.val), C.int(r.vlen))
	C.leveldb_free(unsafe.Pointer(r.val))
	return v, nil
}

// Put stores value under key.
func (d *DB) Put(key, value []byte) error {
	d.putsInMemtable.Store(true)
	k, kn := cbytes(key)
	v, vn := cbytes(value)
	return cError(C.tsb_leveldb_put(d.db, d.s.wo, k, kn, v, vn))
}

// Delete removes key.
func (d *DB) Delete(key []byte) error {
	k, kn := cbytes(key)
	return cError(C.tsb_leveldb_delete(d.db, d.s.wo, k, kn))
}

// DeleteRange removes the keys in [start, end). LevelDB has no range
// delete, so it scans the range and deletes it in batches.
//
// If the memtable may hold puts, it is written out first, so that the
// tombstones never share a table with the entries they delete. LevelDB's
// CompactRange never rewrites the deepest level holding tables, and it
// writes a memtable that overlaps nothing straight to level 2: deleting
// data still in the memtable would otherwise leave a table there whose
// deleted entries no Compact removes.
func (d *DB) DeleteRange(start, end []byte) error {
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

// Compact compacts [start, end) down the levels, after writing the
// memtable out, so deleted entries and their tombstones leave the disk.
func (d *DB) Compact(start, end []byte) error {
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	// A NULL bound is none; an empty start is the smallest key anyway,
	// and an empty end was handled above.
	var s, e *C.char
	var sn, en C.size_t
	if len(start) > 0 {
		s, sn = cbytes(start)
	}
	if len(end) > 0 {
		e, en = cbytes(end)
	}
	C.leveldb_compact_range(d.db, s, sn, e, en)
	return nil
}

// Flush writes the memtable to a table file. LevelDB's log already holds
// every write, so this moves work rather than adding durability.
func (d *DB) Flush() error {
	d.putsInMemtable.Store(false)
	C.tsb_leveldb_flush_memtable(d.db)
	return nil
}

// Close closes the database. Writes acknowledged before it are in the log
// and are replayed by the next Open.
func (d *DB) Close() error {
	if d.db == nil {
		return engine.ErrClosed
	}
	C.leveldb_close(d.db)
	d.db = nil
	d.s.free()
	return nil
}

// cError wraps and frees an error string LevelDB allocated; nil is no error.
func cError(s *C.char) error {
	if s == nil {
		return nil
	}
	defer C.leveldb_free(unsafe.Pointer(s))
	return libError(C.GoString(s))
}

// libError is the error of a failure LevelDB describes with msg.
func libError(msg string) error { return kinds.Wrap(fmt.Errorf("%w: %s", ErrLibrary, msg)) }
