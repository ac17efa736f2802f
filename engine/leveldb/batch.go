package leveldb

// #include "binding.h"
import "C"

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cbatch"
)

// Batch encodes writes in Go memory (package cbatch) and hands them to
// LevelDB in one cgo call at Commit, through a LevelDB write batch it
// keeps from commit to commit, so that its memory is grown once.
type Batch struct {
	db     *DB
	buf    cbatch.Buffer
	wb     *C.leveldb_writebatch_t // made by the first Commit; freed by Close
	puts   bool
	err    error
	closed bool
}

var _ engine.Batch = (*Batch)(nil)

// NewBatch returns an empty batch.
func (d *DB) NewBatch() engine.Batch { return &Batch{db: d} }

// Put records a put of value under key.
func (b *Batch) Put(key, value []byte) {
	if b.closed {
		return
	}
	if !b.buf.Put(key, value) {
		b.err = errTooLarge
		return
	}
	b.puts = true
}

// Delete records a delete of key.
func (b *Batch) Delete(key []byte) {
	if !b.closed && !b.buf.Delete(key) {
		b.err = errTooLarge
	}
}

// Len reports the number of operations recorded since the last Commit.
func (b *Batch) Len() int { return b.buf.Len() }

// Commit applies the batch atomically in one LevelDB write and empties it.
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
	if b.puts {
		b.db.putsInMemtable.Store(true)
	}
	if b.wb == nil {
		b.wb = C.leveldb_writebatch_create()
	}
	r, n := cbytes(rep)
	return cError(C.tsb_leveldb_write(b.db.db, b.db.s.wo, b.wb, r, n))
}

func (b *Batch) reset() {
	b.buf.Reset()
	b.puts = false
	b.err = nil
}

// Close drops the batch.
func (b *Batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.buf = cbatch.Buffer{}
	if b.wb != nil {
		C.leveldb_writebatch_destroy(b.wb)
		b.wb = nil
	}
	return nil
}

// errTooLarge is a key or value of 4 GiB or more, which LevelDB's write
// batch cannot encode.
var errTooLarge = fmt.Errorf("%w: key or value of 4 GiB or more; split it", engine.ErrTooLarge)
