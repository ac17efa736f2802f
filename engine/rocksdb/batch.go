package rocksdb

import (
	"encoding/binary"
	"math"

	"github.com/linxGnu/grocksdb"

	"github.com/tsbench/storage/engine"
)

// RocksDB's WriteBatch wire format: a header of an 8-byte sequence number
// and a 4-byte little-endian count, then records of a tag byte, the key
// and, for a put, the value, each preceded by its varint32 length.
const (
	headerSize = 12
	tagDelete  = 0x0
	tagPut     = 0x1
)

// Batch encodes writes in Go memory in RocksDB's own WriteBatch format, so
// recording costs no cgo call; Commit hands the bytes over in one copy.
type Batch struct {
	db     *DB
	rep    []byte
	n      int
	err    error
	closed bool
}

var _ engine.Batch = (*Batch)(nil)

// NewBatch returns an empty batch.
func (d *DB) NewBatch() engine.Batch {
	return &Batch{db: d, rep: make([]byte, headerSize)}
}

// Put records a put of value under key.
func (b *Batch) Put(key, value []byte) {
	if b.closed || !b.fits(key, value) {
		return
	}
	b.rep = append(b.rep, tagPut)
	b.rep = binary.AppendUvarint(b.rep, uint64(len(key)))
	b.rep = append(b.rep, key...)
	b.rep = binary.AppendUvarint(b.rep, uint64(len(value)))
	b.rep = append(b.rep, value...)
	b.n++
}

// Delete records a delete of key.
func (b *Batch) Delete(key []byte) {
	if b.closed || !b.fits(key, nil) {
		return
	}
	b.rep = append(b.rep, tagDelete)
	b.rep = binary.AppendUvarint(b.rep, uint64(len(key)))
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
	if b.n == 0 {
		return nil
	}
	binary.LittleEndian.PutUint32(b.rep[8:headerSize], uint32(b.n))
	wb := grocksdb.WriteBatchFrom(b.rep)
	defer wb.Destroy()
	return libraryError(b.db.db.Write(b.db.s.wo, wb))
}

func (b *Batch) reset() {
	b.rep = b.rep[:headerSize]
	b.n = 0
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
