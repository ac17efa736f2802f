package pebble

import (
	pebbledb "github.com/cockroachdb/pebble"

	"github.com/tsbench/storage/engine"
)

// batch is a Pebble write batch, committed with one Apply.
type batch struct {
	db *DB
	b  *pebbledb.Batch // nil once closed
}

// NewBatch implements engine.Engine.
func (db *DB) NewBatch() engine.Batch {
	return &batch{db: db, b: db.db.NewBatch()}
}

// Put implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Put(key, value []byte) {
	if b.b != nil {
		// Set only fails on an indexed batch; this one is not indexed.
		_ = b.b.Set(key, value, nil)
	}
}

// Delete implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Delete(key []byte) {
	if b.b != nil {
		_ = b.b.Delete(key, nil)
	}
}

// Len implements engine.Batch.
func (b *batch) Len() int {
	if b.b == nil {
		return 0
	}
	return int(b.b.Count())
}

// Commit implements engine.Batch.
func (b *batch) Commit() error {
	if b.b == nil {
		return engine.ErrClosed
	}
	if err := b.db.guard.Enter(); err != nil {
		return err
	}
	defer b.db.guard.Exit()
	if b.b.Empty() {
		return nil
	}
	if err := b.db.db.Apply(b.b, b.db.wo); err != nil {
		return err
	}
	b.b.Reset()
	return nil
}

// Close implements engine.Batch.
func (b *batch) Close() error {
	if b.b == nil {
		return engine.ErrClosed
	}
	err := b.b.Close()
	b.b = nil
	return err
}
