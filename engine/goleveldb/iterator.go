package goleveldb

import (
	"bytes"

	ldbiter "github.com/syndtr/goleveldb/leveldb/iterator"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/tsbench/storage/engine"
)

// iterator wraps a goleveldb iterator. goleveldb's Key and Value stay
// valid until the next move, which is the engine contract, so they are
// passed through without copying.
type iterator struct {
	db *DB
	it ldbiter.Iterator // nil once closed
}

// NewIterator implements engine.Engine. goleveldb iterators read the
// snapshot taken at their creation.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	if err := db.guard.Enter(); err != nil {
		return nil, err
	}
	defer db.guard.Exit()
	// goleveldb keeps referring to the bounds; the caller may reuse its slices.
	r := &util.Range{Start: bytes.Clone(opts.LowerBound), Limit: bytes.Clone(opts.UpperBound)}
	if r.Start != nil && r.Limit != nil && bytes.Compare(r.Start, r.Limit) > 0 {
		r.Limit = r.Start
	}
	it := db.db.NewIterator(r, nil)
	if err := it.Error(); err != nil {
		it.Release()
		return nil, err
	}
	db.guard.IterOpened()
	return &iterator{db: db, it: it}, nil
}

func (i *iterator) First() bool { return i.it != nil && i.it.First() }

func (i *iterator) Last() bool { return i.it != nil && i.it.Last() }

func (i *iterator) Seek(key []byte) bool { return i.it != nil && i.it.Seek(key) }

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
	return i.it.Value()
}

func (i *iterator) Err() error {
	if i.it == nil {
		return engine.ErrClosed
	}
	return i.it.Error()
}

func (i *iterator) Close() error {
	if i.it == nil {
		return engine.ErrClosed
	}
	err := i.it.Error()
	i.it.Release()
	i.it = nil
	i.db.guard.IterClosed()
	return err
}
