package kyotocabinet

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

// NewBatch returns an empty batch. It buffers its writes in Go and applies
// them in order at Commit in one Kyoto Cabinet transaction, which aborts,
// undoing them all, if any fails.
func (d *DB) NewBatch() engine.BackendBatch {
	update := func(fn func(*DB) error) error { return d.update(true, func() error { return fn(d) }) }
	return writebuf.NewBatch(update, (*DB).put, (*DB).del)
}
