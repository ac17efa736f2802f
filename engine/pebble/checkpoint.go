package pebble

import (
	pebbledb "github.com/cockroachdb/pebble/v2"

	"github.com/tsbench/storage/engine"
)

var _ engine.Checkpointer = (*DB)(nil)

// Checkpoint implements engine.Checkpointer with Pebble's own: the tables
// are hard-linked, the MANIFEST, OPTIONS and WAL copied, after the WAL is
// synced so that every acknowledged write is in the copy.
func (db *DB) Checkpoint(dir string) error {
	return kinds.Wrap(db.db.Checkpoint(dir, pebbledb.WithFlushedWAL()))
}
