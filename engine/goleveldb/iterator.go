package goleveldb

import (
	"bytes"

	ldbiter "github.com/syndtr/goleveldb/leveldb/iterator"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/tsbench/storage/engine"
)

// iterator wraps a goleveldb iterator. goleveldb's Key and Value stay
// valid until the next move, which is the engine contract, so they are
// passed through without copying.
type iterator struct{ it ldbiter.Iterator }

// NewIterator implements engine.Engine. goleveldb iterators read the
// snapshot taken at their creation.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return newIterator(db.db, opts)
}

// newIterator opens an iterator of the database or of a snapshot.
func newIterator(r interface {
	NewIterator(*util.Range, *opt.ReadOptions) ldbiter.Iterator
}, opts engine.IterOptions) (engine.Iterator, error) {
	// goleveldb keeps referring to the bounds; the caller may reuse its slices.
	rg := &util.Range{Start: bytes.Clone(opts.LowerBound), Limit: bytes.Clone(opts.UpperBound)}
	if rg.Start != nil && rg.Limit != nil && bytes.Compare(rg.Start, rg.Limit) > 0 {
		rg.Limit = rg.Start
	}
	it := r.NewIterator(rg, nil)
	if err := it.Error(); err != nil {
		it.Release()
		return nil, kinds.Wrap(err)
	}
	return &iterator{it: it}, nil
}

func (i *iterator) First() bool { return i.it.First() }

func (i *iterator) Last() bool { return i.it.Last() }

func (i *iterator) Seek(key []byte) bool { return i.it.Seek(key) }

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
	return i.it.Value()
}

func (i *iterator) Err() error { return kinds.Wrap(i.it.Error()) }

// Close releases the iterator once: the engine's wrapper turns a second
// Close into engine.ErrClosed without calling it.
func (i *iterator) Close() error {
	err := i.it.Error()
	i.it.Release()
	return kinds.Wrap(err)
}
