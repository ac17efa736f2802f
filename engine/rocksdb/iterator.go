package rocksdb

// #include "binding.h"
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// NewIterator returns an iterator over the keys within opts' bounds. It
// walks a RocksDB iterator in bulk: a C cursor copies many entries per cgo
// call (engine/internal/levelcore), and cursor.Iter hands them out. The
// iterator keeps to its bounds through RocksDB's iterate bounds, so it
// skips whatever lies beyond them, and reads the snapshot RocksDB pins
// when it is created, which the engine contract asks for.
//
// SetBounds changes the iterate bounds of the same RocksDB iterator, which
// keeps its view; RocksDB reads them anew at the next seek. Only dropping
// the upper bound of an iterator made with one takes a new RocksDB
// iterator, which reads the same snapshot if it came from one, and
// otherwise the database as it is now.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return d.newIterator(nil, opts)
}

// newIterator returns an iterator reading snap, or the database as it is
// now when snap is nil.
func (d *DB) newIterator(snap *C.rocksdb_snapshot_t, opts engine.IterOptions) (engine.Iterator, error) {
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	c := C.tsb_rocksdb_cursor_new(d.db, snap,
		lo, lon, C.int(cbool(opts.LowerBound != nil)), hi, hin, C.int(cbool(opts.UpperBound != nil)))
	if c == nil {
		return nil, errNoMemory
	}
	return cursor.NewC(unsafe.Pointer(&C.tsb_rocksdb_cursor_ops), unsafe.Pointer(c), libError, opts), nil
}
