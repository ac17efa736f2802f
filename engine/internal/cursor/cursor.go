// Package cursor is the Go half of the bulk iterators of the C backends.
// Their C side copies as many entries as fit into one buffer per cgo call
// (cursor.h lays it out; engine/internal/levelcore fills it), and Iter
// walks that buffer in Go: a long scan crosses cgo once per 32 KiB of
// entries instead of once or more per entry, and moving costs no
// allocation. Its AppendEntries has the C side fill the caller's buffer
// instead, so that a scan that copies every entry copies it once. Iter is
// the backends' engine.Iterator as it is, SetBounds included: NewC drives
// a levelcore cursor through its table of C calls, and New any other
// Source.
package cursor

/*
#include "cursor.h"

static void tsb_cursor_ops_fill(const tsb_cursor_ops *o, void *c, int op,
				const char *k, size_t klen, char *buf, size_t cap, int limit)
{
	o->fill(c, op, k, klen, buf, cap, limit);
}

static int tsb_cursor_ops_bounds(const tsb_cursor_ops *o, void *c,
				 const char *lower, size_t lowerlen, int haslower,
				 const char *upper, size_t upperlen, int hasupper)
{
	return o->bounds(c, lower, lowerlen, haslower, upper, upperlen, hasupper);
}

static void tsb_cursor_ops_release(const tsb_cursor_ops *o, void *c)
{
	o->release(c);
}

// tsb_cursor_ops_take_err returns the error that ended the last fill, and
// clears it; the caller frees it with tsb_cursor_ops_free_err.
static char *tsb_cursor_ops_take_err(tsb_cursor_head *h)
{
	char *err = h->err;
	h->err = NULL;
	return err;
}

static void tsb_cursor_ops_free_err(const tsb_cursor_ops *o, char *err)
{
	o->free_err(err);
}
*/
import "C"

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// Op is what a fill starts with; see cursor.h.
type Op int

// The ops of cursor.h.
const (
	First  Op = C.TSB_CURSOR_FIRST
	Last   Op = C.TSB_CURSOR_LAST
	Seek   Op = C.TSB_CURSOR_SEEK
	After  Op = C.TSB_CURSOR_AFTER
	Before Op = C.TSB_CURSOR_BEFORE
	Next   Op = C.TSB_CURSOR_NEXT
	Prev   Op = C.TSB_CURSOR_PREV
)

// headerSize is the size of an entry's two lengths.
const headerSize = C.TSB_CURSOR_HEADER

// bufSize is the size of a fill's buffer, unless an entry needs more,
// and what AppendEntries grows its caller's buffer by.
const bufSize = 32 << 10

// minRoom is the least room AppendEntries lends the Source in its
// caller's buffer: with less it grows the buffer first, rather than spend
// a cgo call on a few entries.
const minRoom = 4 << 10

// bufs holds fill buffers between iterators, so that an iterator per
// series costs no buffer of its own. They are Go memory, lent to C for
// each fill: Key and Value kept past their validity read stale data, never
// freed memory.
var bufs = sync.Pool{New: func() any { return new([bufSize]byte) }}

// Source is the C side of one iterator.
type Source interface {
	// Fill starts with op, with key the target of Seek, After and
	// Before, and copies entries in op's direction into buf, as cursor.h
	// lays them out: at most limit, or as many as cursor.h's ramp allows
	// when limit is 0. It returns the bytes and entries used and whether
	// the iterator holds no entry beyond them in that direction; when
	// the next entry does not fit in an empty buf, used is 0 and need is
	// the size it takes, and a Fill with Next or Prev resumes with it.
	// An error comes with the entries read before it.
	Fill(op Op, key, buf []byte, limit int) (used, entries int, end bool, need int, err error)
	// Bound gives the Source the bounds of opts, keeping its view of the
	// data; the next Fill positions it anew.
	Bound(opts engine.IterOptions) error
	// Release frees the Source; Iter calls it once, from Close.
	Release()
}

// cSource is the Source of a C cursor driven through its tsb_cursor_ops
// (see NewC).
type cSource struct {
	ops  *C.tsb_cursor_ops
	c    unsafe.Pointer // starts with a tsb_cursor_head
	wrap func(msg string) error
}

// NewC returns an unpositioned iterator over the C cursor c, made with the
// bounds of opts, which it drives through ops, a *tsb_cursor_ops of
// cursor.h; wrap turns the message of a failure into the backend's error.
// The iterator frees c when it is closed.
func NewC(ops, c unsafe.Pointer, wrap func(msg string) error, opts engine.IterOptions) *Iter {
	it := &Iter{empty: empty(opts), csrc: cSource{ops: (*C.tsb_cursor_ops)(ops), c: c, wrap: wrap}}
	it.src = &it.csrc
	return it
}

// cbytes returns b's data and length for C, with a non-NULL pointer for
// an empty b (memcmp with NULL is undefined even for zero bytes). b must
// hold no Go pointers, which byte slices never do.
func cbytes(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return &nothing, 0
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// nothing stands in for the data of an empty slice.
var nothing C.char

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

func (s *cSource) Fill(op Op, key, buf []byte, limit int) (int, int, bool, int, error) {
	k, kn := cbytes(key)
	b, bn := cbytes(buf)
	C.tsb_cursor_ops_fill(s.ops, s.c, C.int(op), k, kn, b, bn, C.int(limit))
	h := (*C.tsb_cursor_head)(s.c)
	var err error
	if msg := C.tsb_cursor_ops_take_err(h); msg != nil {
		err = s.wrap(C.GoString(msg))
		C.tsb_cursor_ops_free_err(s.ops, msg)
	}
	return int(h.fill.len), int(h.fill.entries), h.fill.end != 0, int(h.fill.need), err
}

func (s *cSource) Bound(opts engine.IterOptions) error {
	lo, lon := cbytes(opts.LowerBound)
	hi, hin := cbytes(opts.UpperBound)
	if C.tsb_cursor_ops_bounds(s.ops, s.c, lo, lon, cbool(opts.LowerBound != nil),
		hi, hin, cbool(opts.UpperBound != nil)) != 0 {
		return s.wrap("out of memory for an iterator's bounds")
	}
	return nil
}

func (s *cSource) Release() { C.tsb_cursor_ops_release(s.ops, s.c) }

// Iter is the engine.Iterator of the C backends over a Source. Key and
// Value point into its buffer, valid until the next move, as the engine
// contract allows. Backends return it as it is, so that a move is one
// interface call, and it gives each of them SetBounds.
type Iter struct {
	src Source // nil once closed
	// csrc is the Source of an Iter from NewC, which src points to.
	csrc cSource
	// empty says the bounds hold no key: the Source is not asked.
	empty bool
	mem   []byte // the fill buffer, from bufs unless an entry needed more
	buf   []byte // the entries of the last fill, in mem
	// next is the offset in buf of the entry after the current one. Next
	// (or Prev) stays in buf while next < nextEnd (prevEnd): the end of
	// buf when it was filled in that direction and the iterator rests on
	// an entry, 0 otherwise, so that a step within buf tests one field.
	next, nextEnd, prevEnd int
	// desc says buf was filled backward, in descending key order.
	desc bool
	// end says the Source holds no entry beyond buf in its direction.
	end bool
	// appending says the Source rests, going forward, after the entries
	// the last AppendEntries appended, which left the iterator on none.
	appending  bool
	key, value []byte // nil when not positioned
	// pending is the error that ended buf, reported once buf is walked.
	pending error
	err     error
	// onClose is called once, by the first Close.
	onClose func()
}

var (
	_ engine.StandaloneIterator = (*Iter)(nil)
	_ engine.EntryAppender      = (*Iter)(nil)
)

// The fill buffer's entries are in engine.AppendEntry's layout.
const _ = uint(headerSize-8) + uint(8-headerSize)

// New returns an unpositioned iterator over src, which was made with the
// bounds of opts.
func New(src Source, opts engine.IterOptions) *Iter {
	return &Iter{src: src, empty: empty(opts)}
}

// empty reports whether opts' range holds no key.
func empty(opts engine.IterOptions) bool {
	return opts.UpperBound != nil && bytes.Compare(opts.LowerBound, opts.UpperBound) >= 0
}

// SetBounds implements engine.BoundsSetter with the Source's Bound: the
// same iterator, with the same view, keeps to new bounds. It leaves the
// iterator unpositioned and returns the error met before, which it
// forgets, as Close would have returned it. Inverted bounds are refused,
// as an engine from Open refuses them, leaving it as it was.
func (it *Iter) SetBounds(opts engine.IterOptions) error {
	if it.src == nil {
		return engine.ErrClosed
	}
	if err := engine.CheckRange(opts.LowerBound, opts.UpperBound); err != nil {
		return fmt.Errorf("engine: SetBounds: %w", err)
	}
	if err := it.src.Bound(opts); err != nil {
		return err
	}
	err := it.met()
	*it = Iter{src: it.src, csrc: it.csrc, empty: empty(opts), mem: it.mem, onClose: it.onClose}
	return err
}

// met returns the error met so far, reported by Err or still pending.
func (it *Iter) met() error {
	if it.err != nil {
		return it.err
	}
	return it.pending
}

// Close releases the Source and the buffer, and returns the error met, if
// any; a second Close returns nil, as io.Closer's convention has it.
func (it *Iter) Close() error {
	if it.src == nil {
		return nil
	}
	if len(it.mem) == bufSize {
		bufs.Put((*[bufSize]byte)(it.mem))
	}
	it.src.Release()
	if it.onClose != nil {
		it.onClose()
	}
	*it = Iter{err: it.met()}
	return it.err
}

// AppendEntries implements engine.EntryAppender: the Source copies
// entries straight into dst, the one copy they get on their way to the
// caller, as many per cgo call as dst has room for. Entries a move
// already copied into buf (those from the one the iterator rests on to
// the end of buf) go out in one copy first. It leaves the iterator on no
// entry unless max ended it within buf.
func (it *Iter) AppendEntries(dst []byte, max int, first bool) ([]byte, int, bool) {
	op, n := Next, 0
	var key []byte
	switch {
	case max < 1:
		return dst, 0, it.key != nil || it.appending
	case first:
		op = First
	case it.key != nil && it.desc:
		// buf holds what lies before: the Source starts anew at the key,
		// which its view holds.
		op, key = Seek, it.key
	case it.key != nil:
		var more bool
		if dst, n, more = it.appendBuf(dst, max); n == max || !more {
			return dst, n, more
		}
	case !it.appending:
		return dst, 0, false
	}
	return it.appendFilled(dst, max, n, op, key)
}

// appendBuf appends the entries of buf from the one the iterator rests
// on, up to max, and reports whether entries may follow them: within
// buf, where the iterator then rests, or in the Source.
func (it *Iter) appendBuf(dst []byte, max int) ([]byte, int, bool) {
	start := it.next - headerSize - len(it.key) - len(it.value)
	last, n := start, 1
	for p := it.next; n < max && p < it.nextEnd; n++ {
		last = p
		p += headerSize + int(binary.NativeEndian.Uint32(it.buf[p:])) + int(binary.NativeEndian.Uint32(it.buf[p+4:]))
	}
	if last != start {
		it.at(last)
	}
	dst = append(dst, it.buf[start:it.next]...)
	if it.next < it.nextEnd {
		it.at(it.next)
		return dst, n, true
	}
	// Past buf: the Source goes on with Next, unless buf was its last.
	more := !it.end
	it.unposition()
	if !more {
		it.err, it.pending = it.pending, nil
	}
	it.appending = more
	return dst, n, more
}

// appendFilled appends up to max-n entries more, starting with op (and
// key, which may point into mem), filled by the Source straight into dst.
func (it *Iter) appendFilled(dst []byte, max, n int, op Op, key []byte) ([]byte, int, bool) {
	it.unposition()
	if it.pending != nil {
		it.err, it.pending = it.pending, nil
	}
	if it.err != nil || it.src == nil || it.empty {
		return dst, n, false
	}
	for n < max {
		if cap(dst)-len(dst) < minRoom {
			dst = slices.Grow(dst, bufSize)
		}
		used, entries, end, need, err := it.src.Fill(op, key, dst[len(dst):cap(dst)], max-n)
		dst, n = dst[:len(dst)+used], n+entries
		if err != nil || end {
			it.err = err
			return dst, n, false
		}
		if used == 0 && need > 0 {
			dst = slices.Grow(dst, need)
		}
		op, key = Next, nil
	}
	it.appending = true
	return dst, n, true
}

// OnClose implements engine.StandaloneIterator: Close calls f once.
func (it *Iter) OnClose(f func()) { it.onClose = f }

// First moves to the smallest key within bounds.
func (it *Iter) First() bool { return it.fill(First, nil, false) }

// Last moves to the largest key within bounds.
func (it *Iter) Last() bool { return it.fill(Last, nil, true) }

// Seek moves to the smallest key >= key within bounds.
func (it *Iter) Seek(key []byte) bool { return it.fill(Seek, key, false) }

// Next moves to the following key. Only a positioned iterator moves: one
// that ran out stays exhausted.
func (it *Iter) Next() bool {
	if it.next < it.nextEnd {
		it.at(it.next)
		return true
	}
	return it.step(false)
}

// Prev moves to the preceding key.
func (it *Iter) Prev() bool {
	if it.next < it.prevEnd {
		it.at(it.next)
		return true
	}
	return it.step(true)
}

// step moves past what buf holds in the direction back says, or turns.
func (it *Iter) step(back bool) bool {
	switch {
	case it.key == nil:
		return false
	case back != it.desc:
		// The Source rests beyond buf the other way: position it anew.
		if back {
			return it.fill(Before, it.key, true)
		}
		return it.fill(After, it.key, false)
	case it.end:
		it.unposition()
		it.err, it.pending = it.pending, nil
		return false
	case back:
		return it.fill(Prev, nil, true)
	}
	return it.fill(Next, nil, false)
}

// unposition leaves it resting on no entry, and not appending.
func (it *Iter) unposition() {
	it.key, it.value = nil, nil
	it.nextEnd, it.prevEnd = 0, 0
	it.appending = false
}

// fill asks the Source for entries and rests on the first. The key of
// After and Before points into mem, which the Source reads before it
// overwrites.
func (it *Iter) fill(op Op, key []byte, desc bool) bool {
	it.unposition()
	if it.pending != nil {
		it.err, it.pending = it.pending, nil
	}
	if it.err != nil || it.src == nil || it.empty {
		return false
	}
	if it.mem == nil {
		it.mem = bufs.Get().(*[bufSize]byte)[:]
	}
	used, _, end, need, err := it.src.Fill(op, key, it.mem, 0)
	if used == 0 && need > 0 && err == nil {
		// The entry the iterator rests on is larger than the buffer.
		if len(it.mem) == bufSize {
			bufs.Put((*[bufSize]byte)(it.mem))
		}
		it.mem = make([]byte, need)
		cont := Next
		if desc {
			cont = Prev
		}
		used, _, end, _, err = it.src.Fill(cont, nil, it.mem, 0)
	}
	it.buf, it.end, it.desc = it.mem[:used], end || err != nil, desc
	if used == 0 {
		it.err = err
		return false
	}
	it.pending = err
	if desc {
		it.prevEnd = used
	} else {
		it.nextEnd = used
	}
	it.at(0)
	return true
}

// at rests on the entry at offset p of buf.
func (it *Iter) at(p int) {
	h := it.buf[p : p+headerSize]
	k := p + headerSize
	v := k + int(binary.NativeEndian.Uint32(h))
	e := v + int(binary.NativeEndian.Uint32(h[4:]))
	it.key = it.buf[k:v:v]
	it.value = it.buf[v:e:e]
	it.next = e
}

// Valid reports whether the iterator rests on a key.
func (it *Iter) Valid() bool { return it.key != nil }

// Key returns the current key, valid until the next move, or nil.
func (it *Iter) Key() []byte { return it.key }

// Value returns the current value, valid until the next move, or nil.
func (it *Iter) Value() []byte { return it.value }

// Err returns the first error the Source reported, once the entries
// before it have been walked, or engine.ErrClosed after Close.
func (it *Iter) Err() error {
	if it.err == nil && it.src == nil {
		return engine.ErrClosed
	}
	return it.err
}

// header is cursor.h, embedded so that editing it rebuilds the backends
// that include it: cmd/go does not track a header found through -I, but it
// rebuilds a package when one it imports compiles differently.
//
//go:embed cursor.h
var header string
