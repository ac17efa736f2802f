package bbolt

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/current"
)

// iterator is a cursor in a read transaction. Key and Value point into the
// memory map, which the transaction keeps in place until Close.
//
// engine.Open keeps the contract on a closed iterator, so it has no state
// of its own for that.
type iterator struct {
	// tx is the iterator's own transaction, ended by Close; nil for an
	// iterator of a snapshot, whose transaction the snapshot ends.
	tx           *bolt.Tx
	c            *bolt.Cursor
	lower, upper []byte
	current.Entry
}

var _ engine.BoundsSetter = (*iterator)(nil)

// NewIterator implements engine.Backend. The iterator holds a read
// transaction until it is closed.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	tx, err := d.begin()
	if err != nil {
		return nil, fmt.Errorf("bbolt: new iterator: %w", err)
	}
	it := newIterator(tx.Bucket(bucket), opts)
	it.tx = tx
	return it, nil
}

// newIterator returns an iterator over b with a cursor of its own.
func newIterator(b *bolt.Bucket, opts engine.IterOptions) *iterator {
	it := &iterator{c: b.Cursor()}
	it.SetBounds(opts)
	return it
}

// SetBounds implements engine.BoundsSetter: the bounds are checked here,
// not by bbolt, so the cursor and its view stay.
func (it *iterator) SetBounds(opts engine.IterOptions) error {
	it.lower, it.upper = bytes.Clone(opts.LowerBound), bytes.Clone(opts.UpperBound)
	it.Clear()
	return nil
}

// below reports whether k is under the upper bound; above, whether it is at
// or over the lower bound.
func (it *iterator) below(k []byte) bool { return it.upper == nil || bytes.Compare(k, it.upper) < 0 }
func (it *iterator) above(k []byte) bool { return it.lower == nil || bytes.Compare(k, it.lower) >= 0 }

// rest keeps k, v as the current entry if ok, else leaves no entry.
func (it *iterator) rest(k, v []byte, ok bool) bool {
	if k == nil || !ok {
		return it.Clear()
	}
	it.Set(k, v)
	return true
}

func (it *iterator) First() bool {
	var k, v []byte
	if it.lower != nil {
		k, v = it.c.Seek(it.lower)
	} else {
		k, v = it.c.First()
	}
	return it.rest(k, v, k != nil && it.below(k))
}

func (it *iterator) Last() bool {
	var k, v []byte
	if it.upper != nil {
		// Seek lands on the first key >= upper, or past the end.
		if k, _ = it.c.Seek(it.upper); k != nil {
			k, v = it.c.Prev()
		} else {
			k, v = it.c.Last()
		}
	} else {
		k, v = it.c.Last()
	}
	return it.rest(k, v, k != nil && it.above(k))
}

func (it *iterator) Seek(key []byte) bool {
	if !it.above(key) {
		key = it.lower
	}
	k, v := it.c.Seek(key)
	return it.rest(k, v, k != nil && it.below(k))
}

func (it *iterator) Next() bool {
	if !it.Valid() {
		return false
	}
	k, v := it.c.Next()
	return it.rest(k, v, k != nil && it.below(k))
}

func (it *iterator) Prev() bool {
	if !it.Valid() {
		return false
	}
	k, v := it.c.Prev()
	return it.rest(k, v, k != nil && it.above(k))
}

func (it *iterator) Err() error { return nil }

func (it *iterator) Close() error {
	it.Clear()
	if it.tx == nil {
		return nil
	}
	if err := it.tx.Rollback(); err != nil {
		return fmt.Errorf("bbolt: close iterator: %w", err)
	}
	return nil
}
