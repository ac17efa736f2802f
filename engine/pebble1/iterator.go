package pebble1

import (
	"bytes"

	pebbledb "github.com/cockroachdb/pebble"

	"github.com/tsbench/storage/engine"
)

// iterator wraps a Pebble iterator, whose Key and Value stay valid until
// the next move, as the engine contract asks.
type iterator struct {
	it  *pebbledb.Iterator
	err error
}

// NewIterator implements engine.Backend. A Pebble iterator reads a
// consistent snapshot as of its creation.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	// Pebble keeps referring to the bounds; the caller may reuse its
	// slices. An inverted pair, which Pebble rejects, is the empty range.
	lower, upper := bytes.Clone(opts.LowerBound), bytes.Clone(opts.UpperBound)
	if lower != nil && upper != nil && bytes.Compare(lower, upper) > 0 {
		upper = lower
	}
	it, err := db.db.NewIter(&pebbledb.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, kinds.Wrap(err)
	}
	return &iterator{it: it}, nil
}

func (i *iterator) First() bool { return i.it.First() }

func (i *iterator) Last() bool { return i.it.Last() }

// Seek turns a seek to the empty key into First, which Pebble's invariant
// checks (on under the race detector) need.
func (i *iterator) Seek(key []byte) bool {
	if len(key) == 0 {
		return i.it.First()
	}
	return i.it.SeekGE(key)
}

// Next and Prev leave an unpositioned or exhausted iterator alone, where
// Pebble would start over from an end.
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

// Close closes the iterator; the engine's wrapper calls it once.
func (i *iterator) Close() error {
	err := i.it.Close()
	if i.err != nil {
		err = i.err
	}
	return kinds.Wrap(err)
}
