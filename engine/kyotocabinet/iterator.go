package kyotocabinet

// #include "binding.h"
import "C"

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/current"
)

// iterator merges a Kyoto Cabinet cursor with its view (see snapshot.go):
// records the cursor meets that were written since the snapshot are
// skipped, and the view supplies their snapshot values in key order. With
// nothing written, a move is one cgo call, and Key and Value point into
// the buffer Kyoto Cabinet read the record into. engine.Open keeps the
// contract on a closed iterator, so it has no state of its own for that.
type iterator struct {
	d            *DB
	cur          *C.KCCUR
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
	current.Entry
	held *C.char
	pos  []byte
	// trash is a buffer to free with the next fetch.
	trash *C.char
	err   error
}

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
	it.Clear()
	it.discard(it.held)
	it.held = nil
	it.dropPend()
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

// move rests on the first key after from (at it if inclusive; nil: no
// limit) in the cursor's direction, from the cursor or the view,
// whichever comes first. The cursor is left at or before that key.
func (it *iterator) move(from []byte, inclusive bool) bool {
	it.discard(it.held)
	it.held = nil
	it.Clear()
	for it.pend.buf == nil && !it.ended && it.err == nil {
		it.fetch()
		if it.pend.buf == nil {
			break
		}
		k := it.pendKey()
		switch c := it.ahead(k, from); {
		case it.beyond(k):
			it.ended = true
			it.dropPend()
		case c < 0 || (c == 0 && !inclusive) || it.v.recorded(k):
			it.dropPend()
		}
	}
	if it.err != nil {
		return false
	}
	next := it.v.next
	if it.back {
		next = it.v.prev
	}
	vk, vv, vok := next(from, inclusive)
	return it.choose(vk, vv, vok)
}

// ahead orders k against from in the cursor's direction: positive when k
// comes later. A nil from is no limit, so every key comes after it.
func (it *iterator) ahead(k, from []byte) int {
	switch {
	case from == nil:
		return 1
	case it.back:
		return bytes.Compare(from, k)
	}
	return bytes.Compare(k, from)
}

// beyond reports whether k is past the bound the cursor walks toward.
func (it *iterator) beyond(k []byte) bool {
	if it.back {
		return it.lower != nil && bytes.Compare(k, it.lower) < 0
	}
	return it.upper != nil && bytes.Compare(k, it.upper) >= 0
}

// dropPend frees the read-ahead record.
func (it *iterator) dropPend() {
	it.discard(it.pend.buf)
	it.pend.buf = nil
}

// choose rests on the read-ahead record or the view's candidate (vk),
// whichever comes first; a key both hold is the view's.
func (it *iterator) choose(vk, vv []byte, vok bool) bool {
	switch {
	case it.pend.buf != nil && (!vok || it.ahead(vk, it.pendKey()) > 0):
		it.Set(it.pendKey(), unsafe.Slice((*byte)(unsafe.Pointer(it.pend.val)), it.pend.vlen))
		it.held, it.pend.buf = it.pend.buf, nil
	case vok:
		if it.pend.buf != nil && bytes.Equal(it.pendKey(), vk) {
			it.dropPend()
		}
		it.Set(vk, vv)
	default:
		return false
	}
	it.pos = append(it.pos[:0], it.Key()...)
	return true
}

// First moves to the smallest key within bounds.
func (it *iterator) First() bool {
	it.jump(false, it.lower)
	return it.move(it.lower, true)
}

// Last moves to the largest key within bounds.
func (it *iterator) Last() bool {
	it.jump(true, it.upper)
	return it.move(it.upper, false)
}

// Seek moves to the smallest key >= key within bounds.
func (it *iterator) Seek(key []byte) bool {
	if it.lower != nil && bytes.Compare(key, it.lower) < 0 {
		key = it.lower
	}
	key = append([]byte{}, key...) // the caller may change key
	it.jump(false, key)
	return it.move(key, true)
}

// Next moves to the following key.
func (it *iterator) Next() bool {
	if !it.Valid() {
		return false
	}
	if it.back {
		it.jump(false, it.pos)
	}
	return it.move(it.pos, false)
}

// Prev moves to the preceding key.
func (it *iterator) Prev() bool {
	if !it.Valid() {
		return false
	}
	if !it.back {
		it.jump(true, it.pos)
	}
	return it.move(it.pos, false)
}

// AppendEntries implements engine.EntryAppender. While no write has
// touched the iterator's range since it was made (its view is empty), a
// forward run of records is copied in C, many per cgo call, from Kyoto
// Cabinet's record buffers straight into dst; otherwise, and backward,
// entry by entry through the view.
func (it *iterator) AppendEntries(dst []byte, max int, first bool) ([]byte, int, bool) {
	more := it.Valid()
	if first {
		more = it.First()
	}
	n := 0
	for more && n < max {
		dst = engine.AppendEntry(dst, it.Key(), it.Value())
		n++
		if n < max && !it.back {
			var filled int
			if dst, filled = it.fill(dst, max-n); filled > 0 {
				n += filled
				more = it.move(it.pos, false)
				continue
			}
		}
		more = it.Next()
	}
	return dst, n, more
}

// Room a fill lends Kyoto Cabinet in its caller's buffer: dst grows by
// growBy first when it has less than minRoom spare, rather than cross
// cgo for a few records.
const (
	minRoom = 4 << 10
	growBy  = 32 << 10
)

// fill appends up to limit records that follow the cursor to dst, with
// the writers held off (rw) and only while the view is empty, so that the
// cursor's records are the snapshot's; it returns how many, leaving pos
// at the last one's key and the cursor after it, or a record that did not
// fit in pend.
func (it *iterator) fill(dst []byte, limit int) ([]byte, int) {
	if it.pend.buf != nil || it.ended || it.err != nil {
		return dst, 0
	}
	it.d.rw.RLock()
	defer it.d.rw.RUnlock()
	if it.v.n.Load() != 0 {
		return dst, 0
	}
	if cap(dst)-len(dst) < minRoom {
		dst = slices.Grow(dst, growBy)
	}
	spare := dst[len(dst):cap(dst)]
	var r C.tsb_kc_fill_result
	var st C.tsb_kc_status
	C.tsb_kc_fill(it.cur, it.trash, bytesPtr(it.upper), C.size_t(len(it.upper)), cBool(it.upper != nil),
		(*C.char)(unsafe.Pointer(unsafe.SliceData(spare))), C.size_t(len(spare)), C.int32_t(limit), &it.pend, &r, &st)
	it.trash = nil
	if r.end != 0 {
		it.ended = true
		if st.code != C.KCESUCCESS && st.code != C.KCENOREC {
			it.err = statusError("cursor", st)
		}
	}
	if r.n > 0 {
		k, _, _ := engine.NextEntry(spare[r.last:r.used])
		it.pos = append(it.pos[:0], k...)
	}
	return dst[:len(dst)+int(r.used)], int(r.n)
}

// Err returns the first error the iterator met.
func (it *iterator) Err() error { return it.err }

// Close releases the cursor and the iterator's view.
func (it *iterator) Close() error {
	it.leave()
	C.kcfree(unsafe.Pointer(it.trash))
	it.trash = nil
	C.kccurdel(it.cur)
	it.cur = nil
	it.d.views.remove(it.v)
	return it.err
}
