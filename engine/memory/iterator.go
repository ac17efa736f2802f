package memory

import (
	"sync/atomic"

	"github.com/tsbench/storage/engine"
)

var _ engine.BoundsSetter = (*iterator)(nil)

// iterator walks a view of the DB's sorted slice. Within bounds means an
// index in [lo, hi); pos is -1 when the iterator rests on no key.
type iterator struct {
	data   []entry
	lo, hi int
	pos    int
	open   *atomic.Int64 // the count it is in
	closed bool
}

func newIterator(data []entry, opts engine.IterOptions, open *atomic.Int64) *iterator {
	it := &iterator{data: data, open: open}
	it.SetBounds(opts)
	return it
}

// SetBounds implements engine.BoundsSetter; the view stays the same.
func (it *iterator) SetBounds(opts engine.IterOptions) error {
	if it.closed {
		return engine.ErrClosed
	}
	lo, hi := bounds(it.data, opts)
	it.lo, it.hi, it.pos = lo, max(lo, hi), -1
	return nil
}

// at rests the iterator on index i if it lies within bounds.
func (it *iterator) at(i int) bool {
	if it.closed || i < it.lo || i >= it.hi {
		it.pos = -1
		return false
	}
	it.pos = i
	return true
}

func (it *iterator) First() bool { return it.at(it.lo) }

func (it *iterator) Last() bool { return it.at(it.hi - 1) }

func (it *iterator) Seek(key []byte) bool {
	i, _ := search(it.data, key)
	return it.at(max(i, it.lo))
}

func (it *iterator) Next() bool { return it.pos >= 0 && it.at(it.pos+1) }

func (it *iterator) Prev() bool { return it.pos >= 0 && it.at(it.pos-1) }

func (it *iterator) Valid() bool { return it.pos >= 0 }

// Key returns the stored key itself: entries are never modified in place.
func (it *iterator) Key() []byte {
	if it.pos < 0 {
		return nil
	}
	return it.data[it.pos].key
}

func (it *iterator) Value() []byte {
	if it.pos < 0 {
		return nil
	}
	return it.data[it.pos].value
}

func (it *iterator) Err() error {
	if it.closed {
		return engine.ErrClosed
	}
	return nil
}

func (it *iterator) Close() error {
	if it.closed {
		return engine.ErrClosed
	}
	it.closed = true
	it.pos = -1
	it.data = nil
	it.open.Add(-1)
	return nil
}
