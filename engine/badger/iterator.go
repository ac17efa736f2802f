package badger

import (
	"fmt"

	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/twoway"
)

// NewIterator implements engine.Backend. The iterator holds a read
// transaction, its snapshot, until it is closed.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	txn, err := d.read()
	if err != nil {
		return nil, err
	}
	return newIterator(txn, txn.Discard, opts), nil
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

// newIterator returns an iterator over txn made of Badger's one-way
// iterators (twoway); done, if not nil, is run by its Close.
func newIterator(txn *badgerv4.Txn, done func(), opts engine.IterOptions) engine.Iterator {
	return twoway.New(func(reverse bool) *badgerv4.Iterator {
		return txn.NewIterator(badgerv4.IteratorOptions{Reverse: reverse})
	}, done, readErr, opts)
}

// readErr is the error of a value Badger could not read.
func readErr(err error) error { return fmt.Errorf("badger: read value: %w", kinds.Wrap(err)) }
