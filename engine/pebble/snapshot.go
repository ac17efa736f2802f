package pebble

import (
	pebbledb "github.com/cockroachdb/pebble/v2"

	"github.com/tsbench/storage/engine"
)

var _ engine.Snapshotter = (*DB)(nil)

// snapshot is a Pebble snapshot: a sequence number its reads see the
// database at. Pebble's snapshots are safe for concurrent use.
type snapshot struct{ s *pebbledb.Snapshot }

// NewSnapshot implements engine.Snapshotter.
func (db *DB) NewSnapshot() (engine.Snapshot, error) {
	return snapshot{db.db.NewSnapshot()}, nil
}

func (s snapshot) Get(key []byte) ([]byte, error) { return get(s.s, key) }

func (s snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return newIterator(s.s, opts)
}

func (s snapshot) Close() error { return kinds.Wrap(s.s.Close()) }
