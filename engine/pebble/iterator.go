package pebble

import (
	"bytes"

	pebbledb "github.com/cockroachdb/pebble/v2"

	"github.com/tsbench/storage/engine"
)

// iterator wraps a Pebble iterator. Pebble's Key and Value stay valid until
// the next move, which is the engine contract, so they are passed through
// without copying.
type iterator struct {
	it  *pebbledb.Iterator
	err error
}

var _ engine.BoundsSetter = (*iterator)(nil)

// NewIterator implements engine.Backend. Pebble iterators read a consistent
// snapshot as of their creation.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return newIterator(db.db, opts)
}

// newIterator opens an iterator of the database or of a snapshot.
func newIterator(r pebbledb.Reader, opts engine.IterOptions) (engine.Iterator, error) {
	// Pebble keeps referring to the bounds; the caller may reuse its slices.
	lower, upper := bounds(opts)
	it, err := r.NewIter(&pebbledb.IterOptions{LowerBound: bytes.Clone(lower), UpperBound: bytes.Clone(upper)})
	if err != nil {
		return nil, kinds.Wrap(err)
	}
	return &iterator{it: it}, nil
}

// bounds returns opts' bounds, an inverted pair (which Pebble rejects)
// made into the empty range it describes.
func bounds(opts engine.IterOptions) (lower, upper []byte) {
	lower, upper = opts.LowerBound, opts.UpperBound
	if lower != nil && upper != nil && bytes.Compare(lower, upper) > 0 {
		upper = lower
	}
	return lower, upper
}

// SetBounds implements engine.BoundsSetter with Pebble's own, which keeps
// the iterator's view and copies the bounds.
func (i *iterator) SetBounds(opts engine.IterOptions) error {
	i.it.SetBounds(bounds(opts))
	return nil
}

func (i *iterator) First() bool { return i.it.First() }

func (i *iterator) Last() bool { return i.it.Last() }

// Seek turns a seek to the empty key into First, its equivalent: Pebble
// built with the race detector (which turns on its invariant checks)
// reads key[0] of a non-nil key and panics on an empty one.
func (i *iterator) Seek(key []byte) bool {
	if len(key) == 0 {
		return i.it.First()
	}
	return i.it.SeekGE(key)
}

// Next and Prev leave an unpositioned or exhausted iterator alone, where
// the library would start over from an end.
func (i *iterator) Next() bool { return i.it.Valid() && i.it.Next() }

func (i *iterator) Prev() bool { return i.it.Valid() && i.it.Prev() }

func (i *iterator) Valid() bool { return i.it.Valid() }

func (i *iterator) Key() []byte {
	if !i.it.Valid() {
		return nil
	}
	return i.it.Key()
}

func (i *iterator) Value() []byte {
	if !i.it.Valid() {
		return nil
	}
	v, err := i.it.ValueAndErr()
	if err != nil {
		i.err = kinds.Wrap(err)
		return nil
	}
	return v
}

func (i *iterator) Err() error {
	if i.err != nil {
		return i.err
	}
	return kinds.Wrap(i.it.Error())
}

// Close closes the iterator once: the engine's wrapper turns a second
// Close into engine.ErrClosed without calling it.
func (i *iterator) Close() error {
	err := i.it.Close()
	if i.err != nil {
		err = i.err
	}
	return kinds.Wrap(err)
}
