package hyperleveldb

// #include "binding.h"
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// NewIterator implements engine.Backend. It walks a HyperLevelDB iterator
// in bulk: a C cursor copies many entries per cgo call, stopping at the
// bounds, which HyperLevelDB's iterators lack (engine/internal/levelcore),
// and cursor.Iter hands them out. HyperLevelDB iterators read the database
// as of their creation (an implicit snapshot), which SetBounds keeps.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return db.newIterator(db.ro, opts)
}

// newIterator returns an iterator reading with ro, the database's read
// options or a snapshot's.
func (db *DB) newIterator(ro *C.hyperleveldb_readoptions_t, opts engine.IterOptions) (engine.Iterator, error) {
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	c := C.tsb_hyperleveldb_cursor_new(db.db, ro,
		lo, lon, C.int(cbool(opts.LowerBound != nil)), hi, hin, C.int(cbool(opts.UpperBound != nil)))
	if c == nil {
		return nil, ErrNoMemory
	}
	return cursor.NewC(unsafe.Pointer(&C.tsb_hyperleveldb_cursor_ops), unsafe.Pointer(c), iterError, opts), nil
}
