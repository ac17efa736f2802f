package sqlite

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

// NewBatch returns an empty batch. It buffers its writes in Go and applies
// them in order at Commit in one SQLite transaction, rolled back if any
// fails, so that the writer connection is held only while committing.
func (d *DB) NewBatch() engine.BackendBatch {
	update := func(fn func(*conn) error) error { return d.write(func(c *conn) error { return c.update(fn) }) }
	return writebuf.NewBatch(update, put, del)
}
