package rocksdb

// #include "binding.h"
import "C"

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/levelcore"
)

// Batch encodes writes in Go memory (levelcore.Batch), in RocksDB's own
// write batch format, so recording costs no cgo call; Commit hands them
// to RocksDB in one.
type Batch struct {
	levelcore.Batch
	db *DB
}

var _ engine.BackendBatch = (*Batch)(nil)

// NewBatch returns an empty batch.
func (d *DB) NewBatch() engine.BackendBatch { return &Batch{db: d} }

// Commit applies the batch atomically in one RocksDB write and empties
// it; on failure the batch is left as it was.
func (b *Batch) Commit() error {
	rep, err := b.Rep()
	if err != nil || rep == nil {
		return err
	}
	r, n := cbytes(rep)
	if err := cError(C.tsb_rocksdb_write(b.db.db, b.db.s.wo, r, n)); err != nil {
		return err
	}
	b.Reset()
	return nil
}

// Close drops the batch.
func (b *Batch) Close() error {
	b.Free()
	return nil
}
