package hyperleveldb

// #include "shim.h"
import "C"

import (
	"encoding/binary"
	"math"

	"github.com/tsbench/storage/engine"
)

// batch collects operations in Go memory, encoded as a tag byte (0 delete,
// 1 put), the key length, the key and, for puts, the value length and the
// value, lengths as native-endian uint32. Commit hands the encoding to C in
// one call that builds the HyperLevelDB batch and writes it, rather than
// one cgo call per operation.
type batch struct {
	db     *DB
	rep    []byte
	n      int
	err    error // ErrTooLarge once an operation did not fit
	closed bool
}

// NewBatch implements engine.Engine.
func (db *DB) NewBatch() engine.Batch {
	return &batch{db: db}
}

// fits records ErrTooLarge for a key or value the encoding cannot hold.
func (b *batch) fits(p []byte) bool {
	if uint64(len(p)) > math.MaxUint32 {
		b.err = ErrTooLarge
		return false
	}
	return true
}

// Put implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Put(key, value []byte) {
	if b.closed || !b.fits(key) || !b.fits(value) {
		return
	}
	b.rep = append(b.rep, 1)
	b.rep = binary.NativeEndian.AppendUint32(b.rep, uint32(len(key)))
	b.rep = append(b.rep, key...)
	b.rep = binary.NativeEndian.AppendUint32(b.rep, uint32(len(value)))
	b.rep = append(b.rep, value...)
	b.n++
}

// Delete implements engine.Batch; it does nothing on a closed batch.
func (b *batch) Delete(key []byte) {
	if b.closed || !b.fits(key) {
		return
	}
	b.rep = append(b.rep, 0)
	b.rep = binary.NativeEndian.AppendUint32(b.rep, uint32(len(key)))
	b.rep = append(b.rep, key...)
	b.n++
}

// Len implements engine.Batch.
func (b *batch) Len() int { return b.n }

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
	if b.n == 0 {
		return nil
	}
	rep, n := cbytes(b.rep)
	if err := cError("write", C.hl_write(b.db.db, b.db.wo, rep, n)); err != nil {
		return err
	}
	b.reset()
	return nil
}

// reset empties the batch, keeping its buffer for reuse.
func (b *batch) reset() {
	b.rep = b.rep[:0]
	b.n = 0
	b.err = nil
}

// Close implements engine.Batch.
func (b *batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.rep = nil
	return nil
}
