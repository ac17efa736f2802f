package hyperleveldb

// #include "shim.h"
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// iterator walks a HyperLevelDB iterator through a C cursor. HyperLevelDB
// iterators read the database as of their creation (an implicit
// snapshot). Key and Value point into the cursor's current entry, which
// stays valid until the next move, so no entry is copied.
type iterator struct {
	db    *DB
	c     *C.hl_cursor // nil once closed
	valid bool         // resting on an entry within bounds
	err   error
}

// NewIterator implements engine.Engine.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	c := C.hl_cursor_new(db.db, db.ro,
		lo, lon, C.int(cbool(opts.LowerBound != nil)),
		hi, hin, C.int(cbool(opts.UpperBound != nil)))
	if c == nil {
		return nil, ErrNoMemory
	}
	db.guard.IterOpened()
	return &iterator{db: db, c: c}, nil
}

// move runs op and records whether it left the iterator on an entry.
func (i *iterator) move(op C.int, key []byte) bool {
	if i.c == nil {
		return false
	}
	k, kn := cbytes(key)
	i.valid = C.hl_cursor_move(i.c, op, k, kn) != 0
	if i.valid {
		return true
	}
	if i.c.err != nil && i.err == nil {
		i.err = cError("iterate", i.c.err)
		i.c.err = nil
	}
	return false
}

func (i *iterator) First() bool { return i.move(C.HL_FIRST, nil) }

func (i *iterator) Last() bool { return i.move(C.HL_LAST, nil) }

func (i *iterator) Seek(key []byte) bool { return i.move(C.HL_SEEK, key) }

// Next and Prev only move from an entry: HyperLevelDB must not step an
// unpositioned iterator, and one that ran out stays exhausted.
func (i *iterator) Next() bool { return i.valid && i.move(C.HL_NEXT, nil) }

func (i *iterator) Prev() bool { return i.valid && i.move(C.HL_PREV, nil) }

func (i *iterator) Valid() bool { return i.c != nil && i.valid }

func (i *iterator) Key() []byte {
	if !i.Valid() {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(i.c.key)), int(i.c.klen))
}

func (i *iterator) Value() []byte {
	if !i.Valid() {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(i.c.val)), int(i.c.vlen))
}

func (i *iterator) Err() error {
	if i.c == nil {
		return engine.ErrClosed
	}
	return i.err
}

func (i *iterator) Close() error {
	if i.c == nil {
		return engine.ErrClosed
	}
	C.hl_cursor_free(i.c)
	i.c = nil
	i.db.guard.IterClosed()
	return i.err
}
