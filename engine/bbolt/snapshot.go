package bbolt

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
)

var _ engine.Snapshotter = (*DB)(nil)

// snapshot is a read transaction shared by its Gets and iterators, each
// with a cursor of its own: a read-only bbolt transaction changes nothing
// as it reads, so they may run concurrently.
type snapshot struct {
	tx *bolt.Tx
	b  *bolt.Bucket
}

// NewSnapshot implements engine.Snapshotter. Like an iterator, the
// snapshot keeps a writer that must grow the map waiting until it closes
// (see the package documentation).
func (d *DB) NewSnapshot() (engine.Snapshot, error) {
	tx, err := d.begin()
	if err != nil {
		return nil, fmt.Errorf("bbolt: new snapshot: %w", err)
	}
	return &snapshot{tx: tx, b: tx.Bucket(bucket)}, nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) { return get(s.b, key) }

func (s *snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return newIterator(s.b, opts), nil
}

func (s *snapshot) Close() error { return s.tx.Rollback() }
