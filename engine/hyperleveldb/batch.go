package hyperleveldb

// #include "binding.h"
import "C"

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cbatch"
)

// batch encodes operations in Go memory (package cbatch); Commit hands the
// encoding to C in one call that builds the HyperLevelDB batch and writes
// it, rather than one cgo call per operation. The HyperLevelDB batch is
// kept from commit to commit, so that its memory is grown once.
type batch struct {
	db     *DB
	buf    cbatch.Buffer
	wb     *C.hyperleveldb_writebatch_t // made by the first Commit; freed by Close
	err    error                        // ErrTooLarge once an operation did not fit
	closed bool
}

// NewBatch implements engine.Engine.
func (db *DB) NewBatch() engine.Batch {
	return &batch{db: db}
}

// Put implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Put(key, value []byte) {
	if !b.closed && !b.buf.Put(key, value) {
		b.err = errTooLarge
	}
}

// Delete implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Delete(key []byte) {
	if !b.closed && !b.buf.Delete(key) {
		b.err = errTooLarge
	}
}

// Len implements engine.Batch.
func (b *batch) Len() int { return b.buf.Len() }

// Commit implements engine.Batch.
func (b *batch) Commit() error {
	if b.closed {
		return engine.ErrClosed
	}
	if err := b.db.guard.Enter(); err != nil {
		return err
	}
	defer b.db.guard.Exit()
	if b.err != nil {
		err := b.err
		b.reset()
		return err
	}
	rep := b.buf.Bytes()
	if rep == nil {
		return nil
	}
	if b.wb == nil {
		b.wb = C.hyperleveldb_writebatch_create()
	}
	r, n := cbytes(rep)
	if err := cError("write", C.tsb_hyperleveldb_write(b.db.db, b.db.wo, b.wb, r, n)); err != nil {
		return err
	}
	b.reset()
	return nil
}

// reset empties the batch, keeping its buffer for reuse.
func (b *batch) reset() {
	b.buf.Reset()
	b.err = nil
}

// Close implements engine.Batch.
func (b *batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.buf = cbatch.Buffer{}
	if b.wb != nil {
		C.hyperleveldb_writebatch_destroy(b.wb)
		b.wb = nil
	}
	return nil
}

// errTooLarge is a key or value of 4 GiB or more, which HyperLevelDB's write
// batch cannot encode.
var errTooLarge = fmt.Errorf("%w: key or value of 4 GiB or more; split it", engine.ErrTooLarge)
