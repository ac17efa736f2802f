package lmdb

// #include "binding.h"
import "C"

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cbatch"
)

// Batch encodes writes in Go memory (package cbatch) and applies them at
// Commit in one cgo call that runs one write transaction: an LMDB write
// transaction is bound to the OS thread that began it, so it cannot stay
// open across the caller's Put calls.
type Batch struct {
	db     *DB
	buf    cbatch.Buffer
	err    error
	closed bool
}

var _ engine.BackendBatch = (*Batch)(nil)

// NewBatch returns an empty batch.
func (db *DB) NewBatch() engine.BackendBatch { return &Batch{db: db} }

// Put records a put of value under key.
func (b *Batch) Put(key, value []byte) {
	if !b.closed && !b.buf.Put(key, value) {
		b.err = errTooLarge
	}
}

// Delete records a delete of key.
func (b *Batch) Delete(key []byte) {
	if !b.closed && !b.buf.Delete(key) {
		b.err = errTooLarge
	}
}

// Reset empties the batch, keeping its memory.
func (b *Batch) Reset() {
	b.buf.Reset()
	b.err = nil
}

// Commit applies the batch atomically and empties it; on failure nothing
// was applied and the batch keeps its writes.
func (b *Batch) Commit() error {
	if b.closed {
		return engine.ErrClosed
	}
	if b.err != nil {
		return b.err
	}
	rep := b.buf.Bytes()
	if rep == nil {
		return nil
	}
	r, n := cbytes(rep)
	db := b.db
	if err := db.update("commit batch", func() C.int { return C.tsb_lmdb_write(db.env, db.dbi, r, n) }); err != nil {
		return err
	}
	b.buf.Reset()
	return nil
}

// Close drops the batch.
func (b *Batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.buf = cbatch.Buffer{}
	b.err = nil
	return nil
}
