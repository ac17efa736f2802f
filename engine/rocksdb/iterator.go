package rocksdb

// #include "binding.h"
import "C"

import (
	"bytes"
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// Iterator walks a RocksDB iterator in bulk: its C cursor copies many
// entries per cgo call (engine/internal/levelcore), and cursor.Iter hands
// them out. The iterator keeps to its bounds through RocksDB's iterate
// bounds, so it skips whatever lies beyond them, and reads the snapshot
// RocksDB pins when it is created, which the engine contract asks for.
type Iterator struct {
	cursor.Iter
	db     *DB
	c      *C.tsb_rocksdb_cursor // nil for an empty range
	closed bool
}

var _ engine.Iterator = (*Iterator)(nil)

// NewIterator returns an iterator over the keys within opts' bounds.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := d.guard.Enter(); err != nil {
		return nil, err
	}
	defer d.guard.Exit()
	it := &Iterator{db: d}
	if opts.UpperBound != nil && bytes.Compare(opts.LowerBound, opts.UpperBound) >= 0 {
		d.guard.IterOpened()
		return it, nil // the zero cursor.Iter holds nothing
	}
	// An empty bound is none: as a lower bound it excludes nothing, and
	// as an upper bound the range was found empty above.
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	it.c = C.tsb_rocksdb_cursor_new(d.db, nil,
		lo, lon, C.int(cbool(len(opts.LowerBound) > 0)),
		hi, hin, C.int(cbool(len(opts.UpperBound) > 0)))
	if it.c == nil {
		return nil, fmt.Errorf("%w: out of memory creating an iterator", ErrLibrary)
	}
	it.Init(source{it.c})
	d.guard.IterOpened()
	return it, nil
}

// source is the C cursor as a cursor.Source.
type source struct{ c *C.tsb_rocksdb_cursor }

func (s source) Fill(op cursor.Op, key, buf []byte) (int, bool, int, error) {
	k, kn := cbytes(key)
	b, bn := cbytes(buf)
	C.tsb_rocksdb_cursor_fill(s.c, C.int(op), k, kn, b, bn)
	var err error
	if s.c.err != nil {
		err = cError(s.c.err)
		s.c.err = nil
	}
	f := &s.c.fill
	return int(f.len), f.end != 0, int(f.need), err
}

// Err returns the first error the iterator met, or engine.ErrClosed once
// it is closed.
func (it *Iterator) Err() error {
	if it.closed {
		return engine.ErrClosed
	}
	return it.Iter.Err()
}

// Close releases the iterator and returns the error it met, if any.
func (it *Iterator) Close() error {
	if it.closed {
		return engine.ErrClosed
	}
	it.closed = true
	it.Drop()
	if it.c != nil {
		C.tsb_rocksdb_cursor_free(it.c)
		it.c = nil
	}
	it.db.guard.IterClosed()
	return it.Iter.Err()
}
