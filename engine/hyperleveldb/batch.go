package hyperleveldb

// #include "binding.h"
import "C"

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/levelcore"
)

// batch encodes operations in Go memory (levelcore.Batch); Commit hands
// the encoding to C in one call that builds the HyperLevelDB batch and
// writes it, rather than one cgo call per operation. The HyperLevelDB
// batch is kept from commit to commit, so that its memory is grown once.
type batch struct {
	levelcore.Batch
	db *DB
	wb *C.hyperleveldb_writebatch_t // made by the first Commit; freed by Close
}

// NewBatch implements engine.Backend.
func (db *DB) NewBatch() engine.BackendBatch {
	return &batch{db: db}
}

// Commit implements engine.BackendBatch: on failure the batch is left as
// it was.
func (b *batch) Commit() error {
	rep, err := b.Rep()
	if err != nil || rep == nil {
		return err
	}
	if b.wb == nil {
		b.wb = C.hyperleveldb_writebatch_create()
	}
	r, n := cbytes(rep)
	if err := cError("write", C.tsb_hyperleveldb_write(b.db.db, b.db.wo, b.wb, r, n)); err != nil {
		return err
	}
	b.Reset()
	return nil
}

// Close implements engine.BackendBatch. It may come after the database's
// Close: the HyperLevelDB write batch does not refer to the database.
func (b *batch) Close() error {
	b.Free()
	if b.wb != nil {
		C.hyperleveldb_writebatch_destroy(b.wb)
		b.wb = nil
	}
	return nil
}
