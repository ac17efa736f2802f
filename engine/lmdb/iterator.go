package lmdb

// #include "binding.h"
import "C"

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor"
)

// NewIterator begins a read transaction and opens a cursor in it, which
// walks it in bulk: the C cursor copies many entries per cgo call,
// stopping at the bounds, and cursor.Iter hands them out. The transaction
// holds its snapshot, and a reader slot, until Close; SetBounds keeps it.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	for {
		if err := db.readMap(); err != nil {
			return nil, err
		}
		r := C.tsb_lmdb_cursor_new(db.env, db.takeIdle(), db.dbi,
			lo, lon, cbool(opts.LowerBound != nil), hi, hin, cbool(opts.UpperBound != nil))
		gen := db.mapGen
		db.mapMu.RUnlock()
		if r.rc == 0 {
			return cursor.New(&source{db: db, c: r.c, gen: gen}, opts), nil
		}
		if err := db.beginFailed("new iterator", r.rc); err != nil {
			return nil, err
		}
	}
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// source is the C cursor as a cursor.Source.
//
// The map may grow while the iterator is open (see mapsize.go), which
// moves it in memory and leaves the cursor's page pointers dangling. So a
// fill holds mapMu, entries are copied into Go memory, and a fill that
// finds the map moved since the last renews the cursor first; the
// transaction itself holds no pointer into the map and stays valid.
type source struct {
	db *DB
	c  *C.tsb_lmdb_cursor
	// gen is the map generation the cursor's pointers belong to.
	gen uint64
}

func (s *source) Fill(op cursor.Op, key, buf []byte, limit int) (int, int, bool, int, error) {
	db := s.db
	db.mapMu.RLock()
	defer db.mapMu.RUnlock()
	if s.gen != db.mapGen {
		if rc := C.tsb_lmdb_cursor_renew(s.c); rc != 0 {
			return 0, 0, true, 0, wrap("iterate", rc)
		}
		s.gen = db.mapGen
	}
	k, kn := cbytes(key)
	b, bn := cbytes(buf)
	C.tsb_lmdb_cursor_fill(s.c, C.int(op), k, kn, b, bn, C.int(limit))
	var err error
	if s.c.rc != 0 {
		err = wrap("iterate", s.c.rc)
	}
	f := &s.c.fill
	return int(f.len), int(f.entries), f.end != 0, int(f.need), err
}

// Bound gives the cursor new bounds; it reads nothing of the map.
func (s *source) Bound(opts engine.IterOptions) error {
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	return wrap("set bounds", C.tsb_lmdb_cursor_bounds(s.c,
		lo, lon, cbool(opts.LowerBound != nil), hi, hin, cbool(opts.UpperBound != nil)))
}

// Release ends the read transaction, releasing its snapshot. Neither that
// nor closing the cursor touches the map, so it needs no lock. The
// transaction is kept for reuse before Close returns, so that Compact,
// which runs only once every iterator is closed, finds it among the idle
// ones.
func (s *source) Release() {
	s.db.putIdle(C.tsb_lmdb_cursor_free(s.c))
	s.c = nil
}
