package leveldb

// #include "binding.h"
import "C"

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// Iterator walks a LevelDB iterator in bulk: its C cursor copies many
// entries per cgo call, stopping at the bounds, which LevelDB's iterators
// lack (engine/internal/levelcore), and cursor.Iter hands them out. LevelDB
// pins the sequence number when the iterator is created, which is the
// snapshot the engine contract asks for.
type Iterator struct {
	cursor.Iter
	db *DB
	c  *C.tsb_leveldb_cursor // nil once closed
}

var _ engine.Iterator = (*Iterator)(nil)

// NewIterator returns an iterator over the keys within opts' bounds.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := d.guard.Enter(); err != nil {
		return nil, err
	}
	defer d.guard.Exit()
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	c := C.tsb_leveldb_cursor_new(d.db, d.s.ro,
		lo, lon, cbool(opts.LowerBound != nil),
		hi, hin, cbool(opts.UpperBound != nil))
	if c == nil {
		return nil, fmt.Errorf("%w: out of memory for an iterator", ErrLibrary)
	}
	d.guard.IterOpened()
	it := &Iterator{db: d, c: c}
	it.Init(source{c})
	return it, nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// source is the C cursor as a cursor.Source.
type source struct{ c *C.tsb_leveldb_cursor }

func (s source) Fill(op cursor.Op, key, buf []byte) (int, bool, int, error) {
	k, kn := cbytes(key)
	b, bn := cbytes(buf)
	C.tsb_leveldb_cursor_fill(s.c, C.int(op), k, kn, b, bn)
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
	if it.c == nil {
		return engine.ErrClosed
	}
	return it.Iter.Err()
}

// Close releases the iterator and returns the error it met, if any.
func (it *Iterator) Close() error {
	if it.c == nil {
		return engine.ErrClosed
	}
	it.Drop()
	err := it.Iter.Err()
	C.tsb_leveldb_cursor_free(it.c)
	it.c = nil
	it.db.guard.IterClosed()
	return err
}
