package levelcore

/*
#include "levelcore.h"

static void *lc_batch(const levelcore_ops *o) { return o->batch(); }
static void lc_batch_free(const levelcore_ops *o, void *wb) { o->batch_free(wb); }

static char *lc_write(const levelcore_ops *o, void *db, const void *wo, void *wb, const char *rep, size_t n)
{
	return o->write(db, wo, wb, rep, n);
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cbatch"
)

// batch encodes writes in Go memory (package cbatch), so recording costs
// no cgo call, and hands them to the library in one at Commit. A library
// that decodes them does so into a write batch of its own, which the batch
// keeps from commit to commit, so that its memory is grown once.
type batch struct {
	d   *DB
	buf cbatch.Buffer
	err error          // errTooLarge once an operation did not fit
	wb  unsafe.Pointer // the library's write batch, made by the first Commit; freed by Close
	// puts says the batch stores values (DB.putsInMemtable).
	puts bool
}

var _ engine.BackendBatch = (*batch)(nil)

// NewBatch returns an empty batch.
func (d *DB) NewBatch() engine.BackendBatch { return &batch{d: d} }

// Put records a put of value under key.
func (b *batch) Put(key, value []byte) {
	if !b.buf.Put(key, value) {
		b.err = errTooLarge
	}
	b.puts = true
}

// Delete records a delete of key.
func (b *batch) Delete(key []byte) {
	if !b.buf.Delete(key) {
		b.err = errTooLarge
	}
}

// Commit applies the batch atomically in one write and empties it; on
// failure the batch is left as it was.
func (b *batch) Commit() error {
	rep := b.buf.Bytes()
	if b.err != nil || rep == nil {
		return b.err
	}
	d := b.d
	if b.puts {
		d.storing()
	}
	if b.wb == nil && d.ops.batch != nil {
		b.wb = C.lc_batch(d.ops)
	}
	r, n := cbytes(rep)
	if err := d.cError("write", C.lc_write(d.ops, d.db, d.wo, b.wb, r, n)); err != nil {
		return err
	}
	b.Reset()
	return nil
}

// Reset empties the batch, keeping its memory.
func (b *batch) Reset() {
	b.buf.Reset()
	b.err = nil
	b.puts = false
}

// Close drops the batch. It may come after the database's Close: the
// library's write batch does not refer to the database.
func (b *batch) Close() error {
	if b.wb != nil {
		C.lc_batch_free(b.d.ops, b.wb)
	}
	*b = batch{d: b.d}
	return nil
}

// MaxValueSize is the longest value the libraries' write batches encode:
// the Limits.MaxValueSize of the engines on levelcore.
const MaxValueSize = cbatch.MaxValueSize

// errTooLarge is a key or value of 4 GiB or more, which the libraries'
// write batches cannot encode.
var errTooLarge = fmt.Errorf("%w: key or value of 4 GiB or more; split it", engine.ErrTooLarge)
