package rocksdb

// #include "binding.h"
import "C"

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cbatch"
)

// Batch encodes writes in Go memory (package cbatch), so recording costs
// no cgo call; Commit hands them to RocksDB in one.
type Batch struct {
	db     *DB
	buf    cbatch.Buffer
	err    error
	closed bool
}

var _ engine.Batch = (*Batch)(nil)

// NewBatch returns an empty batch.
func (d *DB) NewBatch() engine.Batch { return &Batch{db: d} }

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

// Len reports the number of operations recorded since the last Commit.
func (b *Batch) Len() int { return b.buf.Len() }

// Commit applies the batch atomically in one RocksDB write and empties it.
func (b *Batch) Commit() error {
	if b.closed {
		return engine.ErrClosed
	}
	if err := b.db.guard.Enter(); err != nil {
		return err
	}
	defer b.db.guard.Exit()
	defer b.reset()
	if b.err != nil {
		return b.err
	}
	rep := b.buf.Bytes()
	if rep == nil {
		return nil
	}
	r, n := cbytes(rep)
	return cError(C.tsb_rocksdb_write(b.db.db, b.db.s.wo, r, n))
}

func (b *Batch) reset() {
	b.buf.Reset()
	b.err = nil
}

// Close drops the batch.
func (b *Batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.buf = cbatch.Buffer{}
	return nil
}

// errTooLarge is a key or value of 4 GiB or more, which RocksDB's write
// batch cannot encode.
var errTooLarge = fmt.Errorf("%w: key or value of 4 GiB or more; split it", engine.ErrTooLarge)
