package pebble

import (
	"bytes"

	pebbledb "github.com/cockroachdb/pebble"

	"github.com/tsbench/storage/engine"
)

// iterator wraps a Pebble iterator. Pebble's Key and Value stay valid until
// the next move, which is the engine contract, so they are passed through
// without copying.
type iterator struct {
	db  *DB
	it  *pebbledb.Iterator // nil once closed
	err error
}

// NewIterator implements engine.Engine. Pebble iterators read a consistent
// snapshot as of their creation.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	// Pebble keeps referring to the bounds; the caller may reuse its slices.
	io := &pebbledb.IterOptions{
		LowerBound: bytes.Clone(opts.LowerBound),
		UpperBound: bytes.Clone(opts.UpperBound),
	}
	if io.LowerBound != nil && io.UpperBound != nil && bytes.Compare(io.LowerBound, io.UpperBound) > 0 {
		// Pebble rejects inverted bounds; the range they describe is empty.
		io.UpperBound = io.LowerBound
	}
	it, err := db.db.NewIter(io)
	if err != nil {
		return nil, err
	}
	db.guard.IterOpened()
	return &iterator{db: db, it: it}, nil
}

func (i *iterator) First() bool { return i.it != nil && i.it.First() }

func (i *iterator) Last() bool { return i.it != nil && i.it.Last() }

func (i *iterator) Seek(key []byte) bool { return i.it != nil && i.it.SeekGE(key) }

// Next and Prev leave an unpositioned or exhausted iterator alone, where
// the library would start over from an end.
func (i *iterator) Next() bool { return i.Valid() && i.it.Next() }

func (i *iterator) Prev() bool { return i.Valid() && i.it.Prev() }

func (i *iterator) Valid() bool { return i.it != nil && i.it.Valid() }

func (i *iterator) Key() []byte {
	if !i.Valid() {
		return nil
	}
	return i.it.Key()
}

func (i *iterator) Value() []byte {
	if !i.Valid() {
		return nil
	}
	v, err := i.it.ValueAndErr()
	if err != nil {
		i.err = err
		return nil
	}
	return v
}

func (i *iterator) Err() error {
	if i.it == nil {
		return engine.ErrClosed
	}
	if i.err != nil {
		return i.err
	}
	return i.it.Error()
}

func (i *iterator) Close() error {
	if i.it == nil {
		return engine.ErrClosed
	}
	err := i.it.Close()
	if i.err != nil {
		err = i.err
	}
	i.it = nil
	i.db.guard.IterClosed()
	return err
}
