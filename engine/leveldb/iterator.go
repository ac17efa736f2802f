package leveldb

// #include "binding.h"
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// NewIterator returns an iterator over the keys within opts' bounds. It
// walks a LevelDB iterator in bulk: a C cursor copies many entries per
// cgo call, stopping at the bounds, which LevelDB's iterators lack
// (engine/internal/levelcore), and cursor.Iter hands them out. LevelDB
// pins the sequence number when the iterator is created, which is the
// snapshot the engine contract asks for; SetBounds keeps it.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return d.newIterator(d.s.ro, opts)
}

// newIterator returns an iterator reading with ro, the database's read
// options or a snapshot's.
func (d *DB) newIterator(ro *C.leveldb_readoptions_t, opts engine.IterOptions) (engine.Iterator, error) {
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	c := C.tsb_leveldb_cursor_new(d.db, ro,
		lo, lon, cbool(opts.LowerBound != nil), hi, hin, cbool(opts.UpperBound != nil))
	if c == nil {
		return nil, libError("out of memory for an iterator")
	}
	return cursor.NewC(unsafe.Pointer(&C.tsb_leveldb_cursor_ops), unsafe.Pointer(c), libError, opts), nil
}
