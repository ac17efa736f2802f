package pebble

import (
	pebbledb "github.com/cockroachdb/pebble/v2"

	"github.com/tsbench/storage/engine"
)

// batch is a Pebble write batch, committed with one Apply. A failed Apply
// leaves it as it was, as engine.Batch requires.
type batch struct {
	db *DB
	b  *pebbledb.Batch
}

// NewBatch implements engine.Backend.
func (db *DB) NewBatch() engine.BackendBatch {
	return &batch{db: db, b: db.db.NewBatch()}
}

// Put implements engine.BackendBatch. Set only fails on an indexed batch; this
// one is not indexed.
func (b *batch) Put(key, value []byte) { _ = b.b.Set(key, value, nil) }

// Delete implements engine.BackendBatch.
func (b *batch) Delete(key []byte) { _ = b.b.Delete(key, nil) }

// Reset empties the batch, keeping its memory.
func (b *batch) Reset() { b.b.Reset() }

// Commit implements engine.BackendBatch.
func (b *batch) Commit() (err error) {
	if b.b.Empty() {
		return nil
	}
	defer b.db.stop(&err)
	if err := b.db.db.Apply(b.b, b.db.wo); err != nil {
		return kinds.Wrap(err)
	}
	b.b.Reset()
	return nil
}

// Close implements engine.BackendBatch; the engine's wrapper calls it once.
func (b *batch) Close() error { return b.b.Close() }
