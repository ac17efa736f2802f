package goleveldb

import (
	"github.com/syndtr/goleveldb/leveldb"

	"github.com/tsbench/storage/engine"
)

var _ engine.Snapshotter = (*DB)(nil)

// snapshot is a goleveldb snapshot, safe for concurrent use.
type snapshot struct{ s *leveldb.Snapshot }

// NewSnapshot implements engine.Snapshotter.
func (db *DB) NewSnapshot() (engine.Snapshot, error) {
	s, err := db.db.GetSnapshot()
	if err != nil {
		return nil, kinds.Wrap(err)
	}
	return snapshot{s}, nil
}

func (s snapshot) Get(key []byte) ([]byte, error) { return get(s.s, key) }

func (s snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return newIterator(s.s, opts)
}

func (s snapshot) Close() error {
	s.s.Release()
	return nil
}
