// Package cursor is the Go half of the bulk iterators of the C backends.
// Their C side copies as many entries as fit into one buffer per cgo call
// (cursor.h lays it out; engine/internal/levelcore fills it), and Iter
// walks that buffer in Go: a long scan crosses cgo once per 32 KiB of
// entries instead of once or more per entry, and moving costs no
// allocation.
package cursor

// #include "cursor.h"
import "C"

import (
	_ "embed"
	"encoding/binary"
	"sync"
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

// bufSize is the size of a fill's buffer, unless an entry needs more.
const bufSize = 32 << 10

// bufs holds fill buffers between iterators, so that an iterator per
// series costs no buffer of its own. They are Go memory, lent to C for
// each fill: Key and Value kept past their validity read stale data, never
// freed memory.
var bufs = sync.Pool{New: func() any { return new([bufSize]byte) }}

// Source is the C side of one iterator.
type Source interface {
	// Fill starts with op, with key the target of Seek, After and
	// Before, and copies entries in op's direction into buf, as cursor.h
	// lays them out. It returns the bytes used and whether the iterator
	// holds no entry beyond them in that direction; when the next entry
	// does not fit in buf, used is 0 and need is the size it takes, and
	// a Fill with Next or Prev resumes with it. An error comes with the
	// entries read before it.
	Fill(op Op, key, buf []byte) (used int, end bool, need int, err error)
}

// Iter implements the moves of engine.Iterator over a Source; a backend's
// iterator embeds it and adds Close. Key and Value point into its buffer,
// valid until the next move, as the engine contract allows. The zero value
// with no Source is an iterator over nothing.
type Iter struct {
	src Source
	mem []byte // the fill buffer, from bufs unless an entry needed more
	buf []byte // the entries of the last fill, in mem
	// next is the offset in buf of the entry after the current one.
	next int
	// desc says buf was filled backward, in descending key order.
	desc bool
	// end says the Source holds no entry beyond buf in its direction.
	end        bool
	key, value []byte
	valid      bool
	// pending is the error that ended buf, reported once buf is walked.
	pending error
	err     error
}

// Init makes it iterate over src, unpositioned.
func (it *Iter) Init(src Source) { *it = Iter{src: src} }

// Drop gives the buffer back and leaves it unpositioned, keeping the
// errors met so far; the caller then releases the Source.
func (it *Iter) Drop() {
	if len(it.mem) == bufSize {
		bufs.Put((*[bufSize]byte)(it.mem))
	}
	err := it.err
	if err == nil {
		err = it.pending
	}
	*it = Iter{err: err}
}

// First moves to the smallest key within bounds.
func (it *Iter) First() bool { return it.fill(First, nil, false) }

// Last moves to the largest key within bounds.
func (it *Iter) Last() bool { return it.fill(Last, nil, true) }

// Seek moves to the smallest key >= key within bounds.
func (it *Iter) Seek(key []byte) bool { return it.fill(Seek, key, false) }

// Next moves to the following key. Only a positioned iterator moves: one
// that ran out stays exhausted.
func (it *Iter) Next() bool {
	switch {
	case !it.valid:
		return false
	case it.desc:
		return it.fill(After, it.key, false)
	case it.next < len(it.buf):
		it.at(it.next)
		return true
	}
	return it.more(Next, false)
}

// Prev moves to the preceding key.
func (it *Iter) Prev() bool {
	switch {
	case !it.valid:
		return false
	case !it.desc:
		return it.fill(Before, it.key, true)
	case it.next < len(it.buf):
		it.at(it.next)
		return true
	}
	return it.more(Prev, true)
}

// more goes on in the direction of buf, which has been walked.
func (it *Iter) more(op Op, desc bool) bool {
	if it.end {
		it.valid = false
		it.err, it.pending = it.pending, nil
		return false
	}
	return it.fill(op, nil, desc)
}

// fill asks the Source for entries and rests on the first. The key of
// After and Before points into mem, which the Source reads before it
// overwrites.
func (it *Iter) fill(op Op, key []byte, desc bool) bool {
	it.valid = false
	if it.pending != nil {
		it.err, it.pending = it.pending, nil
	}
	if it.err != nil || it.src == nil {
		return false
	}
	if it.mem == nil {
		it.mem = bufs.Get().(*[bufSize]byte)[:]
	}
	used, end, need, err := it.src.Fill(op, key, it.mem)
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
		used, end, _, err = it.src.Fill(cont, nil, it.mem)
	}
	it.buf, it.end, it.desc = it.mem[:used], end || err != nil, desc
	if used == 0 {
		it.err = err
		return false
	}
	it.pending = err
	it.at(0)
	return true
}

// at rests on the entry at offset p of buf.
func (it *Iter) at(p int) {
	b := it.buf[p:]
	k := p + headerSize
	v := k + int(binary.NativeEndian.Uint32(b))
	e := v + int(binary.NativeEndian.Uint32(b[4:]))
	it.key = it.buf[k:v:v]
	it.value = it.buf[v:e:e]
	it.next = e
	it.valid = true
}

// Valid reports whether the iterator rests on a key.
func (it *Iter) Valid() bool { return it.valid }

// Key returns the current key, valid until the next move.
func (it *Iter) Key() []byte {
	if !it.valid {
		return nil
	}
	return it.key
}

// Value returns the current value, valid until the next move.
func (it *Iter) Value() []byte {
	if !it.valid {
		return nil
	}
	return it.value
}

// Err returns the first error the Source reported, once the entries
// before it have been walked.
func (it *Iter) Err() error { return it.err }

// header is cursor.h, embedded so that editing it rebuilds the backends
// that include it: cmd/go does not track a header found through -I, but it
// rebuilds a package when one it imports compiles differently.
//
//go:embed cursor.h
var header string
