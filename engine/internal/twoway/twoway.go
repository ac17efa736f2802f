// Package twoway makes an engine.Iterator of a library's one-way
// iterators: Badger's, whose majors v3 and v4 are distinct types with one
// shape. It keeps a forward and a reverse iterator, each made on first
// use, and re-seeks the other at the current key when the direction
// changes; the bounds are checked here, not by the library, so that
// SetBounds keeps both.
package twoway

import (
	"bytes"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/current"
)

// Item is an entry a Cursor rests on (Badger's *Item).
type Item interface {
	Key() []byte
	ValueCopy(dst []byte) ([]byte, error)
}

// Cursor is a library's one-way iterator (Badger's *Iterator). A reverse
// one's Seek lands on the last key at or before the one given, and its
// Next steps back.
type Cursor[I Item] interface {
	Seek(key []byte)
	Rewind()
	Valid() bool
	Next()
	Item() I
	Close()
}

// Iterator is an engine.Iterator over the cursors of one read view. The
// current entry holds a copy of the key; the value is copied from the
// item when Value asks, so key-only walks such as DeleteRange never read
// values.
type Iterator[C Cursor[I], I Item] struct {
	open func(reverse bool) C
	done func()
	wrap func(error) error

	cursors      [2]C // forward, reverse
	made         [2]bool
	lower, upper []byte

	current.Entry
	item    I
	val     []byte // copy of item's value, once loaded
	loaded  bool   // val holds item's value
	reverse bool   // the current position came from the reverse cursor
	err     error
}

var _ engine.BoundsSetter = (*Iterator[Cursor[Item], Item])(nil)

// New returns an iterator within opts' bounds over the cursors open
// makes. done, if not nil, is run by Close after the cursors' Close (a
// read transaction to discard); wrap turns a value's read error into the
// one Err reports.
func New[C Cursor[I], I Item](open func(reverse bool) C, done func(), wrap func(error) error, opts engine.IterOptions) *Iterator[C, I] {
	it := &Iterator[C, I]{open: open, done: done, wrap: wrap}
	it.SetBounds(opts)
	return it
}

// SetBounds implements engine.BoundsSetter.
func (it *Iterator[C, I]) SetBounds(opts engine.IterOptions) error {
	it.lower, it.upper = bytes.Clone(opts.LowerBound), bytes.Clone(opts.UpperBound)
	it.unset()
	return nil
}

// cursor returns the forward or reverse cursor, making it on first use.
func (it *Iterator[C, I]) cursor(reverse bool) C {
	i := 0
	if reverse {
		i = 1
	}
	if !it.made[i] {
		it.cursors[i], it.made[i] = it.open(reverse), true
	}
	return it.cursors[i]
}

// unset leaves no current entry.
func (it *Iterator[C, I]) unset() bool {
	var none I
	it.loaded, it.item = false, none
	return it.Clear()
}

// settle rests on c's current item if it lies within bounds.
func (it *Iterator[C, I]) settle(c C, reverse bool) bool {
	if !c.Valid() {
		return it.unset()
	}
	item := c.Item()
	k := item.Key()
	if it.upper != nil && bytes.Compare(k, it.upper) >= 0 ||
		it.lower != nil && bytes.Compare(k, it.lower) < 0 {
		return it.unset()
	}
	it.Copy(k, nil)
	it.item, it.reverse, it.loaded = item, reverse, false
	return true
}

func (it *Iterator[C, I]) First() bool {
	c := it.cursor(false)
	if it.lower != nil {
		c.Seek(it.lower)
	} else {
		c.Rewind()
	}
	return it.settle(c, false)
}

func (it *Iterator[C, I]) Last() bool {
	c := it.cursor(true)
	if it.upper != nil {
		// A reverse seek lands on the last key <= upper; upper itself is
		// out of bounds.
		c.Seek(it.upper)
		if c.Valid() && bytes.Equal(c.Item().Key(), it.upper) {
			c.Next()
		}
	} else {
		c.Rewind()
	}
	return it.settle(c, true)
}

func (it *Iterator[C, I]) Seek(key []byte) bool {
	if it.lower != nil && bytes.Compare(key, it.lower) < 0 {
		key = it.lower
	}
	c := it.cursor(false)
	if len(key) == 0 {
		c.Rewind() // Badger seeks an empty key with its Prefix option
	} else {
		c.Seek(key)
	}
	return it.settle(c, false)
}

func (it *Iterator[C, I]) Next() bool { return it.step(false) }

func (it *Iterator[C, I]) Prev() bool { return it.step(true) }

// step moves one entry on in the direction reverse says, from the
// current entry.
func (it *Iterator[C, I]) step(reverse bool) bool {
	if !it.Valid() {
		return false
	}
	c := it.cursor(reverse)
	if it.reverse != reverse {
		// Land on the current key, present in the view, then step.
		c.Seek(it.Key())
		if !c.Valid() || !bytes.Equal(c.Item().Key(), it.Key()) {
			return it.settle(c, reverse)
		}
	}
	c.Next()
	return it.settle(c, reverse)
}

// Value copies the current value into a buffer the iterator reuses.
func (it *Iterator[C, I]) Value() []byte {
	if !it.Valid() {
		return nil
	}
	if !it.loaded {
		v, err := it.item.ValueCopy(it.val[:0])
		if err != nil {
			it.err = it.wrap(err)
			return nil
		}
		it.val, it.loaded = v, true
	}
	return it.val
}

func (it *Iterator[C, I]) Err() error { return it.err }

// Close closes the cursors and runs done; the engine's wrapper calls it
// once.
func (it *Iterator[C, I]) Close() error {
	it.unset()
	for i, made := range it.made {
		if made {
			it.cursors[i].Close()
		}
	}
	if it.done != nil {
		it.done()
	}
	return it.err
}
