package goleveldb

import (
	"github.com/syndtr/goleveldb/leveldb"

	"github.com/tsbench/storage/engine"
)

// batch is a goleveldb write batch, committed with one Write. A failed
// Write leaves it as it was, as engine.Batch requires.
type batch struct {
	db *DB
	leveldb.Batch
}

// NewBatch implements engine.Backend.
func (db *DB) NewBatch() engine.BackendBatch { return &batch{db: db} }

// Commit implements engine.BackendBatch.
func (b *batch) Commit() error {
	if b.Len() == 0 {
		return nil
	}
	if err := b.db.db.Write(&b.Batch, b.db.wo); err != nil {
		return kinds.Wrap(err)
	}
	b.Reset()
	return nil
}

// Close implements engine.BackendBatch; a goleveldb batch holds only Go memory.
func (b *batch) Close() error { return nil }
