package leveldb

// #include "binding.h"
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// Iterator walks a LevelDB iterator through a C cursor: one cgo call per
// move, and Key and Value point into LevelDB's memory without copying.
// LevelDB pins the sequence number when the iterator is created, which is
// the snapshot the engine contract asks for.
type Iterator struct {
	db    *DB
	c     *C.tsb_leveldb_cursor // nil once closed
	valid bool
	err   error
}

var _ engine.Iterator = (*Iterator)(nil)

// NewIterator returns an iterator over the keys within opts' bounds.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := d.guard.Enter(); err != nil {
		return nil, err
	}
	defer d.guard.Exit()
	lower, lowerlen, haslower := bound(opts.LowerBound)
	upper, upperlen, hasupper := bound(opts.UpperBound)
	c := C.tsb_leveldb_cursor_new(cdb(d.db), (*C.leveldb_readoptions_t)(unsafe.Pointer(d.s.ro.Opt)),
		lower, lowerlen, haslower, upper, upperlen, hasupper)
	if c == nil {
		return nil, fmt.Errorf("%w: out of memory for an iterator", ErrLibrary)
	}
	d.guard.IterOpened()
	return &Iterator{db: d, c: c}, nil
}

// bound passes a bound to C: a nil slice is none, an empty one the empty key.
func bound(b []byte) (*C.char, C.size_t, C.int) {
	if b == nil {
		return nil, 0, 0
	}
	return bytesPtr(b), C.size_t(len(b)), 1
}

// bytesPtr points C at b's bytes for the duration of a call.
func bytesPtr(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(&b[0]))
}

// move runs one positioning operation. Next and Prev need a valid
// position: LevelDB's iterator must not be stepped once invalid.
func (it *Iterator) move(op C.int, key []byte) bool {
	if it.err != nil {
		it.valid = false
		return false
	}
	it.valid = C.tsb_leveldb_cursor_move(it.c, op, bytesPtr(key), C.size_t(len(key))) != 0
	if it.c.err != nil {
		it.err = cError(it.c.err)
		it.c.err = nil
		it.valid = false
	}
	return it.valid
}

// First moves to the smallest key within bounds.
func (it *Iterator) First() bool { return it.move(C.TSB_LEVELDB_FIRST, nil) }

// Last moves to the largest key within bounds.
func (it *Iterator) Last() bool { return it.move(C.TSB_LEVELDB_LAST, nil) }

// Seek moves to the smallest key >= key within bounds.
func (it *Iterator) Seek(key []byte) bool { return it.move(C.TSB_LEVELDB_SEEK, key) }

// Next moves to the following key.
func (it *Iterator) Next() bool {
	if !it.valid {
		return false
	}
	return it.move(C.TSB_LEVELDB_NEXT, nil)
}

// Prev moves to the preceding key.
func (it *Iterator) Prev() bool {
	if !it.valid {
		return false
	}
	return it.move(C.TSB_LEVELDB_PREV, nil)
}

// Valid reports whether the iterator rests on a key.
func (it *Iterator) Valid() bool { return it.valid }

// Key returns the current key, valid until the next move or Close.
func (it *Iterator) Key() []byte {
	if !it.valid {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(it.c.key)), it.c.klen)
}

// Value returns the current value, valid until the next move or Close.
func (it *Iterator) Value() []byte {
	if !it.valid {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(it.c.val)), it.c.vlen)
}

// Err returns the first error the iterator met, or engine.ErrClosed once
// it is closed.
func (it *Iterator) Err() error { return it.err }

// Close releases the iterator and returns the error it met, if any.
func (it *Iterator) Close() error {
	if it.c == nil {
		return engine.ErrClosed
	}
	C.tsb_leveldb_cursor_free(it.c)
	it.c = nil
	it.valid = false
	it.db.guard.IterClosed()
	err := it.err
	it.err = engine.ErrClosed
	return err
}
