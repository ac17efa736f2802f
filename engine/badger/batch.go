package badger

import (
	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

// NewBatch implements engine.Backend. The batch buffers its writes in Go
// and applies them in a single Badger transaction, which commits
// atomically; for the same key the last write wins. A batch larger than a
// transaction may hold (about 15% of write_buffer_size) fails with
// engine.ErrTooLarge and applies nothing, since splitting it would break
// atomicity.
func (d *DB) NewBatch() engine.BackendBatch {
	return writebuf.NewBatch(d.update, d.set, (*badgerv4.Txn).Delete)
}
