package badger

import (
	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
)

var _ engine.Snapshotter = (*DB)(nil)

// snapshot is one read transaction, at the timestamp of its creation,
// shared by its Gets and iterators: a read-only Badger transaction may
// serve several iterators and readers at once.
type snapshot struct{ txn *badgerv4.Txn }

// NewSnapshot implements engine.Snapshotter.
func (d *DB) NewSnapshot() (engine.Snapshot, error) {
	txn, err := d.read()
	return snapshot{txn}, err
}

func (s snapshot) Get(key []byte) ([]byte, error) { return get(s.txn, key) }

func (s snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return newIterator(s.txn, nil, opts), nil
}

func (s snapshot) Close() error {
	s.txn.Discard()
	return nil
}
