package memory

import (
	"sync/atomic"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/current"
)

var _ engine.BoundsSetter = (*iterator)(nil)

// iterator walks a view of the DB's sorted slice. Within bounds means an
// index in [lo, hi); pos is the index of the current entry, which is the
// stored one itself: entries are never modified in place.
type iterator struct {
	data   []entry
	lo, hi int
	pos    int
	current.Entry
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
	it.lo, it.hi = lo, max(lo, hi)
	it.Clear()
	return nil
}

// at rests the iterator on index i if it lies within bounds.
func (it *iterator) at(i int) bool {
	if it.closed || i < it.lo || i >= it.hi {
		return it.Clear()
	}
	it.pos = i
	it.Set(it.data[i].key, it.data[i].value)
	return true
}

func (it *iterator) First() bool { return it.at(it.lo) }

func (it *iterator) Last() bool { return it.at(it.hi - 1) }

func (it *iterator) Seek(key []byte) bool {
	i, _ := search(it.data, key)
	return it.at(max(i, it.lo))
}

func (it *iterator) Next() bool { return it.Valid() && it.at(it.pos+1) }

func (it *iterator) Prev() bool { return it.Valid() && it.at(it.pos-1) }

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
	it.Clear()
	it.data = nil
	it.open.Add(-1)
	return nil
}
