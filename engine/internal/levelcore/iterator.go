package levelcore

/*
#include "levelcore.h"

static void *lc_cursor(const levelcore_ops *o, void *db, const void *ro, const void *snap,
		       const char *lower, size_t lowerlen, int haslower,
		       const char *upper, size_t upperlen, int hasupper)
{
	return o->cursor(db, ro, snap, lower, lowerlen, haslower, upper, upperlen, hasupper);
}
*/
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// NewIterator returns an iterator over the keys within opts' bounds. It
// walks a library iterator in bulk: a C cursor copies many entries per
// cgo call, stopping at the bounds, and cursor.Iter hands them out. The
// library pins a sequence number when the iterator is created, which is
// the snapshot the engine contract asks for; SetBounds keeps it.
//
// LevelDB's and HyperLevelDB's iterators have no bounds, so the cursor
// keeps to them. RocksDB's iterate bounds let the iterator skip whatever
// lies beyond them; SetBounds changes them on the same RocksDB iterator,
// which keeps its view, except that dropping the upper bound of an
// iterator made with one takes a new RocksDB iterator, which reads the
// same snapshot if it came from one, and otherwise the database as it is
// now.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return d.newIterator(d.ro, nil, opts)
}

// newIterator returns an iterator reading with ro, the database's read
// options or those of snap, a snapshot, or nil.
func (d *DB) newIterator(ro, snap unsafe.Pointer, opts engine.IterOptions) (engine.Iterator, error) {
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	c := C.lc_cursor(d.ops, d.db, ro, snap,
		lo, lon, cbool(opts.LowerBound != nil), hi, hin, cbool(opts.UpperBound != nil))
	if c == nil {
		return nil, d.libError("new iterator", "out of memory")
	}
	return cursor.NewC(unsafe.Pointer(d.ops.cursor_ops), c, d.iterError, opts), nil
}
