package goleveldb

import (
	"github.com/syndtr/goleveldb/leveldb"

	"github.com/tsbench/storage/engine"
)

// batch is a goleveldb write batch, committed with one Write.
type batch struct {
	db *DB
	b  *leveldb.Batch // nil once closed
}

// NewBatch implements engine.Engine.
func (db *DB) NewBatch() engine.Batch {
	return &batch{db: db, b: new(leveldb.Batch)}
}

// Put implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Put(key, value []byte) {
	if b.b != nil {
		b.b.Put(key, value)
	}
}

// Delete implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Delete(key []byte) {
	if b.b != nil {
		b.b.Delete(key)
	}
}

// Len implements engine.Batch.
func (b *batch) Len() int {
	if b.b == nil {
		return 0
	}
	return b.b.Len()
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
	if b.b.Len() == 0 {
		return nil
	}
	if err := b.db.db.Write(b.b, b.db.wo); err != nil {
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
	b.b = nil
	return nil
}
