package leveldb

// #include "binding.h"
import "C"

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// Batch buffers writes in Go memory and hands them to LevelDB in one cgo
// call at Commit. Each record is a tag byte (TSB_LEVELDB_PUT or _DELETE),
// the key and, for a put, the value, each preceded by its length as a
// native-endian uint32; tsb_leveldb_write in binding.c decodes it.
type Batch struct {
	db     *DB
	rep    []byte
	n      int
	puts   bool
	err    error
	closed bool
}

var _ engine.Batch = (*Batch)(nil)

// NewBatch returns an empty batch.
func (d *DB) NewBatch() engine.Batch { return &Batch{db: d} }

// Put records a put of value under key.
func (b *Batch) Put(key, value []byte) {
	if b.closed || !b.fits(key, value) {
		return
	}
	b.rep = append(b.rep, C.TSB_LEVELDB_PUT)
	b.rep = binary.NativeEndian.AppendUint32(b.rep, uint32(len(key)))
	b.rep = append(b.rep, key...)
	b.rep = binary.NativeEndian.AppendUint32(b.rep, uint32(len(value)))
	b.rep = append(b.rep, value...)
	b.n++
	b.puts = true
}

// Delete records a delete of key.
func (b *Batch) Delete(key []byte) {
	if b.closed || !b.fits(key, nil) {
		return
	}
	b.rep = append(b.rep, C.TSB_LEVELDB_DELETE)
	b.rep = binary.NativeEndian.AppendUint32(b.rep, uint32(len(key)))
	b.rep = append(b.rep, key...)
	b.n++
}

// fits reports whether key and value can be encoded, remembering the
// error for Commit otherwise.
func (b *Batch) fits(key, value []byte) bool {
	if uint64(len(key)) > math.MaxUint32 || uint64(len(value)) > math.MaxUint32 {
		b.err = ErrTooLarge
		return false
	}
	return true
}

// Len reports the number of operations recorded since the last Commit.
func (b *Batch) Len() int { return b.n }

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
	if b.n == 0 {
		return nil
	}
	if b.puts {
		b.db.putsInMemtable.Store(true)
	}
	cerr := C.tsb_leveldb_write(cdb(b.db.db), (*C.leveldb_writeoptions_t)(unsafe.Pointer(b.db.s.wo.Opt)),
		(*C.char)(unsafe.Pointer(&b.rep[0])), C.size_t(len(b.rep)))
	return cError(cerr)
}

func (b *Batch) reset() {
	b.rep = b.rep[:0]
	b.n = 0
	b.puts = false
	b.err = nil
}

// Close drops the batch.
func (b *Batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.rep = nil
	return nil
}
