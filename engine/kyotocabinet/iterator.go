package kyotocabinet

// #include "binding.h"
import "C"

import (
	"bytes"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// iterator merges a Kyoto Cabinet cursor with its view (see snapshot.go):
// records the cursor meets that were written since the snapshot are
// skipped, and the view supplies their snapshot values in key order. With
// nothing written, a move is one cgo call, and Key and Value point into
// the buffer Kyoto Cabinet read the record into.
type iterator struct {
	d            *DB
	cur          *C.KCCUR // nil once closed
	v            *view
	lower, upper []byte

	// back is the cursor's direction. pend is the record it read ahead
	// and the iterator has not returned (pend.buf nil: none); ended means
	// it has no more records that way.
	back  bool
	pend  C.tsb_kc_entry
	ended bool

	// The entry the iterator rests on; held is the buffer it points into
	// when it came from the cursor, and pos a copy of its key.
	valid    bool
	key, val []byte
	held     *C.char
	pos      []byte
	// trash is a buffer to free with the next fetch.
	trash *C.char
	err   error
}

var _ engine.Iterator = (*iterator)(nil)

// NewIterator returns an iterator over the keys within opts' bounds, over
// the snapshot of this moment.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	// No write is half done while the view starts.
	d.rw.RLock()
	defer d.rw.RUnlock()
	v := &view{lower: bytes.Clone(opts.LowerBound), upper: bytes.Clone(opts.UpperBound)}
	d.views.add(v)
	return &iterator{d: d, cur: C.kcdbcursor(d.db), v: v, lower: v.lower, upper: v.upper}, nil
}

// discard frees a record buffer, with the next fetch when it can.
func (it *iterator) discard(p *C.char) {
	switch {
	case p == nil:
	case it.trash == nil:
		it.trash = p
	default:
		C.kcfree(unsafe.Pointer(p))
	}
}

// leave drops the current entry and the read-ahead record before the
// cursor jumps.
func (it *iterator) leave() {
	it.valid = false
	it.discard(it.held)
	it.held = nil
	it.discard(it.pend.buf)
	it.pend.buf = nil
}

// fetch reads the next record in the cursor's direction into pend.
func (it *iterator) fetch() {
	step := C.int32_t(1)
	if it.back {
		step = -1
	}
	var st C.tsb_kc_status
	C.tsb_kc_fetch(it.cur, step, it.trash, &it.pend, &st)
	it.trash = nil
	if it.pend.buf == nil {
		it.ended = true
		if st.code != C.KCENOREC {
			it.err = statusError("cursor", st)
		}
	}
}

// jump positions the cursor for a scan from key (nil: the first or last
// record) in direction back.
func (it *iterator) jump(back bool, key []byte) {
	it.leave()
	it.back, it.ended = back, false
	var st C.tsb_kc_status
	if C.tsb_kc_jump(it.cur, cBool(back), bytesPtr(key), C.size_t(len(key)), &st) == 0 {
		it.ended = true
		if st.code != C.KCENOREC {
			it.err = statusError("cursor", st)
		}
	}
}

func (it *iterator) pendKey() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(it.pend.key)), it.pend.klen)
}

// forward moves to the first key after from (at or after it if
// inclusive), from the cursor or the view, whichever comes first. The
// cursor is positioned forward at or before that key.
func (it *iterator) forward(from []byte, inclusive bool) bool {
	it.discard(it.held)
	it.held, it.valid = nil, false
	for it.pend.buf == nil && !it.ended && it.err == nil {
		it.fetch()
		if it.pend.buf == nil {
			break
		}
		k := it.pendKey()
		switch c := compare(k, from); {
		case it.upper != nil && bytes.Compare(k, it.upper) >= 0:
			it.ended = true
			it.discard(it.pend.buf)
			it.pend.buf = nil
		case c < 0 || (c == 0 && !inclusive) || it.v.recorded(k):
			it.discard(it.pend.buf)
			it.pend.buf = nil
		}
	}
	if it.err != nil {
		return false
	}
	vk, vv, vok := it.v.next(from, inclusive)
	return it.choose(vk, vv, vok, func(a, b []byte) bool { return bytes.Compare(a, b) < 0 })
}

// backward is forward's mirror: the last key before from (nil: no limit).
func (it *iterator) backward(from []byte, inclusive bool) bool {
	it.discard(it.held)
	it.held, it.valid = nil, false
	for it.pend.buf == nil && !it.ended && it.err == nil {
		it.fetch()
		if it.pend.buf == nil {
			break
		}
		k := it.pendKey()
		c := 1
		if from != nil {
			c = bytes.Compare(from, k)
		}
		switch {
		case it.lower != nil && bytes.Compare(k, it.lower) < 0:
			it.ended = true
			it.discard(it.pend.buf)
			it.pend.buf = nil
		case c < 0 || (c == 0 && !inclusive) || it.v.recorded(k):
			it.discard(it.pend.buf)
			it.pend.buf = nil
		}
	}
	if it.err != nil {
		return false
	}
	vk, vv, vok := it.v.prev(from, inclusive)
	return it.choose(vk, vv, vok, func(a, b []byte) bool { return bytes.Compare(a, b) > 0 })
}

// choose rests on the read-ahead record or the view's candidate (vk),
// whichever comes first by before; a key both hold is the view's.
func (it *iterator) choose(vk, vv []byte, vok bool, before func(a, b []byte) bool) bool {
	switch {
	case it.pend.buf != nil && (!vok || before(it.pendKey(), vk)):
		it.key = it.pendKey()
		it.val = unsafe.Slice((*byte)(unsafe.Pointer(it.pend.val)), it.pend.vlen)
		it.held, it.pend.buf = it.pend.buf, nil
	case vok:
		if it.pend.buf != nil && bytes.Equal(it.pendKey(), vk) {
			it.discard(it.pend.buf)
			it.pend.buf = nil
		}
		it.key, it.val = vk, vv
	default:
		return false
	}
	it.valid = true
	it.pos = append(it.pos[:0], it.key...)
	return true
}

// compare orders k after a nil from, which is no limit.
func compare(k, from []byte) int {
	if from == nil {
		return 1
	}
	return bytes.Compare(k, from)
}

// First moves to the smallest key within bounds.
func (it *iterator) First() bool {
	if it.cur == nil {
		return false
	}
	it.jump(false, it.lower)
	return it.forward(it.lower, true)
}

// Last moves to the largest key within bounds.
func (it *iterator) Last() bool {
	if it.cur == nil {
		return false
	}
	it.jump(true, it.upper)
	return it.backward(it.upper, false)
}

// Seek moves to the smallest key >= key within bounds.
func (it *iterator) Seek(key []byte) bool {
	if it.cur == nil {
		return false
	}
	if it.lower != nil && bytes.Compare(key, it.lower) < 0 {
		key = it.lower
	}
	key = append([]byte{}, key...) // the caller may change key
	it.jump(false, key)
	return it.forward(key, true)
}

// Next moves to the following key.
func (it *iterator) Next() bool {
	if it.cur == nil || !it.valid {
		return false
	}
	if it.back {
		it.jump(false, it.pos)
	}
	return it.forward(it.pos, false)
}

// Prev moves to the preceding key.
func (it *iterator) Prev() bool {
	if it.cur == nil || !it.valid {
		return false
	}
	if !it.back {
		it.jump(true, it.pos)
	}
	return it.backward(it.pos, false)
}

// Valid reports whether the iterator rests on a key.
func (it *iterator) Valid() bool { return it.valid }

// Key returns the current key, valid until the next move or Close.
func (it *iterator) Key() []byte {
	if !it.valid {
		return nil
	}
	return it.key
}

// Value returns the current value, valid until the next move or Close.
func (it *iterator) Value() []byte {
	if !it.valid {
		return nil
	}
	return it.val
}

// Err returns the first error the iterator met, or engine.ErrClosed once
// it is closed.
func (it *iterator) Err() error { return it.err }

// Close releases the cursor and the iterator's view.
func (it *iterator) Close() error {
	if it.cur == nil {
		return engine.ErrClosed
	}
	it.leave()
	C.kcfree(unsafe.Pointer(it.trash))
	it.trash = nil
	C.kccurdel(it.cur)
	it.cur = nil
	it.d.views.remove(it.v)
	err := it.err
	it.err = engine.ErrClosed
	return err
}
