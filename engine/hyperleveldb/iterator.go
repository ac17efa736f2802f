package hyperleveldb

// #include "binding.h"
import "C"

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// iterator walks a HyperLevelDB iterator in bulk: its C cursor copies
// many entries per cgo call, stopping at the bounds, which HyperLevelDB's
// iterators lack (engine/internal/levelcore), and cursor.Iter hands them
// out. HyperLevelDB iterators read the database as of their creation (an
// implicit snapshot).
type iterator struct {
	cursor.Iter
	db *DB
	c  *C.tsb_hyperleveldb_cursor // nil once closed
}

// NewIterator implements engine.Engine.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	c := C.tsb_hyperleveldb_cursor_new(db.db, db.ro,
		lo, lon, C.int(cbool(opts.LowerBound != nil)),
		hi, hin, C.int(cbool(opts.UpperBound != nil)))
	if c == nil {
		return nil, ErrNoMemory
	}
	db.guard.IterOpened()
	i := &iterator{db: db, c: c}
	i.Init(source{c})
	return i, nil
}

// source is the C cursor as a cursor.Source.
type source struct{ c *C.tsb_hyperleveldb_cursor }

func (s source) Fill(op cursor.Op, key, buf []byte) (int, bool, int, error) {
	k, kn := cbytes(key)
	b, bn := cbytes(buf)
	C.tsb_hyperleveldb_cursor_fill(s.c, C.int(op), k, kn, b, bn)
	var err error
	if s.c.err != nil {
		err = cError("iterate", s.c.err)
		s.c.err = nil
	}
	f := &s.c.fill
	return int(f.len), f.end != 0, int(f.need), err
}

func (i *iterator) Err() error {
	if i.c == nil {
		return engine.ErrClosed
	}
	return i.Iter.Err()
}

func (i *iterator) Close() error {
	if i.c == nil {
		return engine.ErrClosed
	}
	i.Drop()
	C.tsb_hyperleveldb_cursor_free(i.c)
	i.c = nil
	i.db.guard.IterClosed()
	return i.Iter.Err()
}
