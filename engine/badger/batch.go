package badger

import "github.com/tsbench/storage/engine/internal/writebuf"

// batch buffers its writes in Go and applies them in a single Badger
// transaction, which commits atomically.
type batch struct {
	d *DB
	writebuf.Buffer
}

// Commit applies the writes in one transaction; for the same key the last
// write wins. A batch larger than a transaction may hold fails with
// ErrBatchTooBig and applies nothing, since splitting it would break
// atomicity.
func (b *batch) Commit() error { return writebuf.Commit(&b.Buffer, b.d.update, set, del) }
