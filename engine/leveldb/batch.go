package leveldb

// #include "binding.h"
import "C"

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/levelcore"
)

// Batch encodes writes in Go memory (levelcore.Batch) and hands them to
// LevelDB in one cgo call at Commit, through a LevelDB write batch it
// keeps from commit to commit, so that its memory is grown once.
type Batch struct {
	levelcore.Batch
	db   *DB
	wb   *C.leveldb_writebatch_t // made by the first Commit; freed by Close
	puts bool                    // for DB.putsInMemtable
}

var _ engine.BackendBatch = (*Batch)(nil)

// NewBatch returns an empty batch.
func (d *DB) NewBatch() engine.BackendBatch { return &Batch{db: d} }

// Put records a put of value under key.
func (b *Batch) Put(key, value []byte) {
	b.Batch.Put(key, value)
	b.puts = true
}

// Commit applies the batch atomically in one LevelDB write and empties
// it; on failure the batch is left as it was.
func (b *Batch) Commit() error {
	rep, err := b.Rep()
	if err != nil || rep == nil {
		return err
	}
	if b.puts {
		b.db.putsInMemtable.Store(true)
	}
	if b.wb == nil {
		b.wb = C.leveldb_writebatch_create()
	}
	r, n := cbytes(rep)
	if err := cError(C.tsb_leveldb_write(b.db.db, b.db.s.wo, b.wb, r, n)); err != nil {
		return err
	}
	b.Reset()
	return nil
}

// Reset empties the batch, keeping its memory.
func (b *Batch) Reset() {
	b.Batch.Reset()
	b.puts = false
}

// Close drops the batch. It may come after the database's Close: the
// LevelDB write batch does not refer to the database.
func (b *Batch) Close() error {
	b.Free()
	if b.wb != nil {
		C.leveldb_writebatch_destroy(b.wb)
		b.wb = nil
	}
	return nil
}
