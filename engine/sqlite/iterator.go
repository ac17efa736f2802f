package sqlite

// #include "binding.h"
import "C"

import (
	"errors"
	"slices"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// Iterator walks a key range with ordered SELECTs through a C cursor: one
// cgo call per move, and Key and Value point into SQLite's memory without
// copying; AppendEntries copies many entries per call.
//
// With shared connections the iterator owns a read connection holding a
// read transaction, begun when it was created: in WAL mode that is a
// snapshot no later commit changes. Otherwise it reads through the writer
// connection, under its lock, and writes are refused while it is open.
type Iterator struct {
	d     *DB
	c     *conn                // the connection it reads through
	mu    *sync.Mutex          // held for each move; nil when c is its own
	cur   *C.tsb_sqlite_cursor // nil once closed
	valid bool
	err   error
}

var _ engine.Iterator = (*Iterator)(nil)

// NewIterator returns an iterator over the keys within opts' bounds.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	it := &Iterator{d: d}
	if d.shared {
		c, err := d.reader()
		if err != nil {
			return nil, err
		}
		// BEGIN alone defers the read; the first read fixes the snapshot.
		if err := c.exec(c.beginRead, nil, nil); err != nil {
			d.release(c)
			return nil, err
		}
		if err := c.exec(c.snapshot, nil, nil); err != nil {
			return nil, errors.Join(err, d.endRead(c))
		}
		it.c = c
	} else {
		it.c, it.mu = d.w, &d.wmu
		it.mu.Lock()
		defer it.mu.Unlock()
	}
	cur, err := it.c.cursor()
	if err == nil {
		err = bound(cur, opts)
		if err != nil {
			C.tsb_sqlite_cursor_free(cur)
		}
	}
	if err != nil {
		if d.shared {
			err = errors.Join(err, d.endRead(it.c))
		}
		return nil, err
	}
	it.cur = cur
	d.iters.Add(1)
	return it, nil
}

// bound copies opts' bounds into the cursor.
func bound(cur *C.tsb_sqlite_cursor, opts engine.IterOptions) error {
	lp, llen, hasl := blob(opts.LowerBound)
	up, ulen, hasu := blob(opts.UpperBound)
	if rc := C.tsb_sqlite_cursor_bound(cur, (*C.char)(lp), llen, hasl, (*C.char)(up), ulen, hasu); rc != C.TSB_SQLITE_OK {
		return libraryError(rc, "new iterator")
	}
	return nil
}

// endRead ends a read connection's transaction and returns it to the
// idle list.
func (d *DB) endRead(c *conn) error {
	err := c.exec(c.commit, nil, nil)
	if err != nil {
		// A connection in an unknown state is not reused.
		return errors.Join(err, c.close())
	}
	d.release(c)
	return nil
}

// move runs one positioning operation.
func (it *Iterator) move(op C.int, key []byte) bool {
	if it.cur == nil || it.err != nil {
		it.valid = false
		return false
	}
	if it.mu != nil {
		it.mu.Lock()
		defer it.mu.Unlock()
	}
	kp, klen, _ := blob(key)
	it.valid = C.tsb_sqlite_cursor_move(it.cur, op, (*C.char)(kp), klen) != 0
	if rc := it.cur.rc; rc != C.TSB_SQLITE_OK {
		it.err = it.c.error(rc)
		it.valid = false
	}
	return it.valid
}

// First moves to the smallest key within bounds.
func (it *Iterator) First() bool { return it.move(C.TSB_SQLITE_FIRST, nil) }

// Last moves to the largest key within bounds.
func (it *Iterator) Last() bool { return it.move(C.TSB_SQLITE_LAST, nil) }

// Seek moves to the smallest key >= key within bounds.
func (it *Iterator) Seek(key []byte) bool { return it.move(C.TSB_SQLITE_SEEK, nonNil(key)) }

// Next moves to the following key.
func (it *Iterator) Next() bool {
	if !it.valid {
		return false
	}
	return it.move(C.TSB_SQLITE_NEXT, nil)
}

// Prev moves to the preceding key.
func (it *Iterator) Prev() bool {
	if !it.valid {
		return false
	}
	return it.move(C.TSB_SQLITE_PREV, nil)
}

// AppendEntries implements engine.EntryAppender: one cgo call copies as
// many entries as dst has room for, straight from SQLite's rows, and
// leaves the iterator on the entry after them.
func (it *Iterator) AppendEntries(dst []byte, max int, first bool) ([]byte, int, bool) {
	if it.cur == nil || it.err != nil || (!first && !it.valid) {
		it.valid = false
		return dst, 0, false
	}
	if it.mu != nil {
		it.mu.Lock()
		defer it.mu.Unlock()
	}
	n, start := 0, C.int(0)
	if first {
		start = 1
	}
	for n < max {
		if cap(dst)-len(dst) < minRoom {
			dst = slices.Grow(dst, growBy)
		}
		spare := dst[len(dst):cap(dst)]
		f := C.tsb_sqlite_cursor_fill(it.cur, start, (*C.char)(unsafe.Pointer(unsafe.SliceData(spare))), C.size_t(len(spare)), C.int(max-n))
		start = 0
		dst, n = dst[:len(dst)+int(f.used)], n+int(f.n)
		if f.need > 0 {
			dst = slices.Grow(dst, int(f.need))
		}
		if it.cur.key == nil {
			break
		}
	}
	it.valid = it.cur.key != nil
	if rc := it.cur.rc; rc != C.TSB_SQLITE_OK {
		it.err = it.c.error(rc)
		it.valid = false
	}
	return dst, n, it.valid
}

// minRoom is the least room AppendEntries lends SQLite in its caller's
// buffer, which it grows by growBy first when it has less, rather than
// spend a cgo call on a few entries.
const (
	minRoom = 4 << 10
	growBy  = 32 << 10
)

// Valid reports whether the iterator rests on a key.
func (it *Iterator) Valid() bool { return it.valid }

// Key returns the current key, valid until the next move or Close.
func (it *Iterator) Key() []byte {
	if !it.valid {
		return nil
	}
	return unsafe.Slice((*byte)(it.cur.key), it.cur.klen)
}

// Value returns the current value, valid until the next move or Close.
func (it *Iterator) Value() []byte {
	if !it.valid {
		return nil
	}
	return unsafe.Slice((*byte)(it.cur.val), it.cur.vlen)
}

// Err returns the first error the iterator met, or engine.ErrClosed once
// it is closed.
func (it *Iterator) Err() error { return it.err }

// Close ends the iterator's read transaction, keeps its statements for
// the next iterator and returns the error it met, if any.
func (it *Iterator) Close() error {
	if it.cur == nil {
		return engine.ErrClosed
	}
	err := it.err
	if it.mu != nil {
		it.mu.Lock()
	}
	C.tsb_sqlite_cursor_release(it.cur)
	it.c.idle = append(it.c.idle, it.cur)
	if it.mu != nil {
		it.mu.Unlock()
	} else if eerr := it.d.endRead(it.c); err == nil {
		err = eerr
	}
	it.cur, it.c = nil, nil
	it.valid = false
	it.d.iters.Add(-1)
	it.err = engine.ErrClosed
	return err
}
