package badger

import (
	"bytes"
	"fmt"

	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/current"
)

// iterator walks a read transaction. A Badger iterator goes one way only,
// so this keeps a forward and a reverse one, each made on first use, and
// re-seeks the other at the current key when the direction changes.
// engine.Open keeps the contract on a closed iterator, so it has no state
// of its own for that.
type iterator struct {
	txn *badgerv4.Txn
	// own says txn is the iterator's, discarded by Close, not a
	// snapshot's.
	own          bool
	fwd, rev     *badgerv4.Iterator
	lower, upper []byte

	// The current entry holds a copy of the key; the value is read from
	// item when Value asks.
	current.Entry
	item    *badgerv4.Item
	val     []byte // copy of item's value, once loaded
	loaded  bool   // val holds item's value
	reverse bool   // the current position came from rev
	err     error
}

var _ engine.BoundsSetter = (*iterator)(nil)

// NewIterator implements engine.Backend. The iterator holds a read
// transaction, its snapshot, until it is closed.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	txn, err := d.read()
	if err != nil {
		return nil, err
	}
	it := newIterator(txn, opts)
	it.own = true
	return it, nil
}

// read starts a read transaction that outlives the call, for an iterator
// or a snapshot to discard.
func (d *DB) read() (txn *badgerv4.Txn, err error) {
	err = d.db.Use(func(db *badgerv4.DB) error {
		txn = db.NewTransaction(false)
		return nil
	})
	return txn, err
}

// newIterator returns an iterator over txn.
func newIterator(txn *badgerv4.Txn, opts engine.IterOptions) *iterator {
	it := &iterator{txn: txn}
	it.SetBounds(opts)
	return it
}

// SetBounds implements engine.BoundsSetter: the bounds are checked here,
// not by Badger, so the transaction and its Badger iterators stay.
func (it *iterator) SetBounds(opts engine.IterOptions) error {
	it.lower, it.upper = bytes.Clone(opts.LowerBound), bytes.Clone(opts.UpperBound)
	it.Clear()
	it.loaded, it.item = false, nil
	return nil
}

// forward returns the forward Badger iterator, making it on first use.
// Values are only read when Value asks, so key-only walks such as
// DeleteRange never touch them.
func (it *iterator) forward() *badgerv4.Iterator {
	if it.fwd == nil {
		it.fwd = it.txn.NewIterator(badgerv4.IteratorOptions{})
	}
	return it.fwd
}

// backward returns the reverse Badger iterator, making it on first use.
func (it *iterator) backward() *badgerv4.Iterator {
	if it.rev == nil {
		it.rev = it.txn.NewIterator(badgerv4.IteratorOptions{Reverse: true})
	}
	return it.rev
}

// settle rests on bi's current item if it lies within bounds.
func (it *iterator) settle(bi *badgerv4.Iterator, reverse bool) bool {
	it.loaded, it.item = false, nil
	if !bi.Valid() {
		return it.Clear()
	}
	item := bi.Item()
	k := item.Key()
	if it.upper != nil && bytes.Compare(k, it.upper) >= 0 ||
		it.lower != nil && bytes.Compare(k, it.lower) < 0 {
		return it.Clear()
	}
	it.Copy(k, nil)
	it.item, it.reverse = item, reverse
	return true
}

func (it *iterator) First() bool {
	bi := it.forward()
	if it.lower != nil {
		bi.Seek(it.lower)
	} else {
		bi.Rewind()
	}
	return it.settle(bi, false)
}

func (it *iterator) Last() bool {
	bi := it.backward()
	if it.upper != nil {
		// A reverse seek lands on the last key <= upper; upper itself is
		// out of bounds.
		bi.Seek(it.upper)
		if bi.Valid() && bytes.Equal(bi.Item().Key(), it.upper) {
			bi.Next()
		}
	} else {
		bi.Rewind()
	}
	return it.settle(bi, true)
}

func (it *iterator) Seek(key []byte) bool {
	if it.lower != nil && bytes.Compare(key, it.lower) < 0 {
		key = it.lower
	}
	bi := it.forward()
	if len(key) == 0 {
		bi.Rewind() // Badger seeks an empty key with its Prefix option
	} else {
		bi.Seek(key)
	}
	return it.settle(bi, false)
}

func (it *iterator) Next() bool {
	if !it.Valid() {
		return false
	}
	bi := it.forward()
	if it.reverse {
		// Land on the current key, present in the snapshot, then step.
		bi.Seek(it.Key())
		if !bi.Valid() || !bytes.Equal(bi.Item().Key(), it.Key()) {
			return it.settle(bi, false)
		}
	}
	bi.Next()
	return it.settle(bi, false)
}

func (it *iterator) Prev() bool {
	if !it.Valid() {
		return false
	}
	bi := it.backward()
	if !it.reverse {
		bi.Seek(it.Key())
		if !bi.Valid() || !bytes.Equal(bi.Item().Key(), it.Key()) {
			return it.settle(bi, true)
		}
	}
	bi.Next()
	return it.settle(bi, true)
}

// Value copies the current value into a buffer the iterator reuses.
func (it *iterator) Value() []byte {
	if !it.Valid() {
		return nil
	}
	if !it.loaded {
		v, err := it.item.ValueCopy(it.val[:0])
		if err != nil {
			it.err = fmt.Errorf("badger: read value: %w", kinds.Wrap(err))
			return nil
		}
		it.val, it.loaded = v, true
	}
	return it.val
}

func (it *iterator) Err() error { return it.err }

func (it *iterator) Close() error {
	it.Clear()
	it.item = nil
	if it.fwd != nil {
		it.fwd.Close()
	}
	if it.rev != nil {
		it.rev.Close()
	}
	if it.own {
		it.txn.Discard()
	}
	return it.err
}
