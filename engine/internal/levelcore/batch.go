package levelcore

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cbatch"
)

// Batch is what the batches of the C backends share: the operations,
// encoded in Go memory (package cbatch), and the error of one too large
// to encode. A backend embeds it and adds Commit, which hands Rep to C in
// one call, and Close.
type Batch struct {
	buf cbatch.Buffer
	err error // errTooLarge once an operation did not fit
}

// Put records a put of value under key.
func (b *Batch) Put(key, value []byte) {
	if !b.buf.Put(key, value) {
		b.err = errTooLarge
	}
}

// Delete records a delete of key.
func (b *Batch) Delete(key []byte) {
	if !b.buf.Delete(key) {
		b.err = errTooLarge
	}
}

// Rep returns the encoded batch, nil when it is empty, or the error of an
// operation that did not fit, which Commit returns leaving the batch as it
// was.
func (b *Batch) Rep() ([]byte, error) { return b.buf.Bytes(), b.err }

// Reset empties the batch, keeping its memory.
func (b *Batch) Reset() {
	b.buf.Reset()
	b.err = nil
}

// Free drops the batch's memory, for its Close.
func (b *Batch) Free() { *b = Batch{} }

// errTooLarge is a key or value of 4 GiB or more, which the libraries'
// write batches cannot encode.
var errTooLarge = fmt.Errorf("%w: key or value of 4 GiB or more; split it", engine.ErrTooLarge)
