package bbolt

import "github.com/tsbench/storage/engine/internal/writebuf"

// batch buffers its writes in Go and applies them in a single bbolt write
// transaction, so a commit is one fsync (or none).
type batch struct {
	d *DB
	writebuf.Buffer
}

// Commit applies the writes in order; bbolt rolls the transaction back if
// any fails, so the batch is all-or-nothing.
func (b *batch) Commit() error { return writebuf.Commit(&b.Buffer, b.d.update, put, del) }
