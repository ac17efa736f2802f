package rocksdb

// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"bytes"
	"fmt"
	"unsafe"

	"github.com/linxGnu/grocksdb"

	"github.com/tsbench/storage/engine"
)

// Iterator walks a RocksDB iterator through a C cursor: one cgo call per
// move, and Key and Value point into RocksDB's memory without copying.
// RocksDB pins the sequence number when the iterator is created, which is
// the snapshot the engine contract asks for.
type Iterator struct {
	db *DB
	ro *grocksdb.ReadOptions
	it *grocksdb.Iterator
	c  *C.tsb_rocksdb_cursor // nil for an empty range
	// bounds are C copies of the bounds: RocksDB keeps pointers to them.
	bounds []unsafe.Pointer
	valid  bool
	err    error
	closed bool
}

var _ engine.Iterator = (*Iterator)(nil)

// grocksdb keeps the C iterator in the only field of its Iterator and does
// not export it; these fail to compile if that ever changes shape.
var (
	_ [unsafe.Sizeof(grocksdb.Iterator{}) - unsafe.Sizeof(uintptr(0))]struct{}
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(grocksdb.Iterator{})]struct{}
)

// NewIterator returns an iterator over the keys within opts' bounds.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := d.guard.Enter(); err != nil {
		return nil, err
	}
	defer d.guard.Exit()
	it := &Iterator{db: d}
	d.guard.IterOpened()
	if opts.UpperBound != nil && bytes.Compare(opts.LowerBound, opts.UpperBound) >= 0 {
		return it, nil
	}
	it.ro = grocksdb.NewDefaultReadOptions()
	if opts.LowerBound != nil {
		it.ro.SetIterateLowerBound(it.bound(opts.LowerBound))
	}
	if opts.UpperBound != nil {
		it.ro.SetIterateUpperBound(it.bound(opts.UpperBound))
	}
	it.it = d.db.NewIterator(it.ro)
	it.c = (*C.tsb_rocksdb_cursor)(C.malloc(C.sizeof_tsb_rocksdb_cursor))
	*it.c = C.tsb_rocksdb_cursor{it: *(**C.rocksdb_iterator_t)(unsafe.Pointer(it.it))}
	return it, nil
}

// bound copies b to C memory that lives as long as the iterator.
func (it *Iterator) bound(b []byte) []byte {
	p := C.CBytes(b)
	it.bounds = append(it.bounds, p)
	return unsafe.Slice((*byte)(p), len(b))
}

// move runs one positioning operation.
func (it *Iterator) move(op C.int, key []byte) bool {
	if it.err != nil || it.c == nil {
		it.valid = false
		return false
	}
	var k *C.char
	if len(key) > 0 {
		k = (*C.char)(unsafe.Pointer(&key[0]))
	}
	it.valid = C.tsb_rocksdb_cursor_move(it.c, op, k, C.size_t(len(key))) != 0
	if it.c.err != nil {
		it.err = cError(it.c.err)
		it.c.err = nil
		it.valid = false
	}
	return it.valid
}

// First moves to the smallest key within bounds.
func (it *Iterator) First() bool { return it.move(C.TSB_ROCKSDB_FIRST, nil) }

// Last moves to the largest key within bounds.
func (it *Iterator) Last() bool { return it.move(C.TSB_ROCKSDB_LAST, nil) }

// Seek moves to the smallest key >= key within bounds.
func (it *Iterator) Seek(key []byte) bool { return it.move(C.TSB_ROCKSDB_SEEK, key) }

// Next moves to the following key. RocksDB's iterator must not be stepped
// once invalid.
func (it *Iterator) Next() bool {
	if !it.valid {
		return false
	}
	return it.move(C.TSB_ROCKSDB_NEXT, nil)
}

// Prev moves to the preceding key.
func (it *Iterator) Prev() bool {
	if !it.valid {
		return false
	}
	return it.move(C.TSB_ROCKSDB_PREV, nil)
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
	if it.closed {
		return engine.ErrClosed
	}
	if it.c != nil {
		C.free(unsafe.Pointer(it.c))
		it.it.Close()
		it.ro.Destroy()
	}
	for _, p := range it.bounds {
		C.free(p)
	}
	it.c, it.it, it.ro, it.bounds = nil, nil, nil, nil
	it.closed = true
	it.valid = false
	it.db.guard.IterClosed()
	err := it.err
	it.err = engine.ErrClosed
	return err
}

// cError wraps and frees an error string RocksDB allocated.
func cError(s *C.char) error {
	defer C.rocksdb_free(unsafe.Pointer(s))
	return fmt.Errorf("%w: %s", ErrLibrary, C.GoString(s))
}
