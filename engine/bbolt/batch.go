package bbolt

import (
	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

// NewBatch implements engine.Backend. The batch buffers its writes in Go
// and applies them in a single bbolt write transaction, so a commit is one
// fsync (or none); bbolt rolls the transaction back if any write fails,
// so the batch is all-or-nothing.
func (d *DB) NewBatch() engine.BackendBatch {
	return writebuf.NewBatch(d.update, (*bolt.Bucket).Put, (*bolt.Bucket).Delete)
}
