package goleveldb

import (
	"bytes"

	ldbiter "github.com/syndtr/goleveldb/leveldb/iterator"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/tsbench/storage/engine"
)

// iterator is a goleveldb iterator. Its Key and Value stay valid until
// the next move, which is the engine contract, and are nil off an entry,
// so they serve as they are, as do First, Last, Seek and Valid.
type iterator struct{ ldbiter.Iterator }

// NewIterator implements engine.Backend. goleveldb iterators read the
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
	return iterator{it}, nil
}

// Next and Prev leave an unpositioned or exhausted iterator alone, where
// the library would start over from an end.
func (i iterator) Next() bool { return i.Valid() && i.Iterator.Next() }

func (i iterator) Prev() bool { return i.Valid() && i.Iterator.Prev() }

func (i iterator) Err() error { return kinds.Wrap(i.Error()) }

// Close releases the iterator once: the engine's wrapper turns a second
// Close into engine.ErrClosed without calling it.
func (i iterator) Close() error {
	err := i.Error()
	i.Release()
	return kinds.Wrap(err)
}
