// Package cbatch is the write batch of the C backends (leveldb,
// hyperleveldb, rocksdb): Put and Delete encode into one Go byte slice,
// and Commit hands it to C in one cgo call, instead of one call per
// operation.
//
// The encoding is LevelDB's write batch representation, which RocksDB
// reads as is for its default column family: a 12-byte header (an 8-byte
// sequence number, zero here, and the little-endian uint32 count of
// records), then per record a tag byte (Put or Delete), the key and, for a
// put, the value, each preceded by its length as a varint32. RocksDB takes
// it in one copy (rocksdb_writebatch_create_from); libraries without such
// a call decode it with tsb_cbatch_next from cbatch.h.
package cbatch

import (
	_ "embed"
	"encoding/binary"
	"math"
)

// Record tags and the header size, the values of cbatch.h.
const (
	tagDelete  = 0
	tagPut     = 1
	headerSize = 12
)

// Buffer holds encoded writes. The zero value is empty; the memory it grows
// is kept across Reset, so that a reused batch allocates nothing.
type Buffer struct {
	rep []byte // header and records; nil until the first write
	n   int
}

// MaxValueSize is the longest key or value a Buffer encodes, 4 GiB less
// one byte (the libraries' 32-bit lengths): the Limits.MaxValueSize of
// the engines that use it.
const MaxValueSize = math.MaxUint32

// Put records a put of value under key. It reports false, recording
// nothing, when either is 4 GiB or more, which a varint32 cannot encode.
func (b *Buffer) Put(key, value []byte) bool {
	if uint64(len(key)) > math.MaxUint32 || uint64(len(value)) > math.MaxUint32 {
		return false
	}
	b.start()
	b.rep = append(b.rep, tagPut)
	b.rep = binary.AppendUvarint(b.rep, uint64(len(key)))
	b.rep = append(b.rep, key...)
	b.rep = binary.AppendUvarint(b.rep, uint64(len(value)))
	b.rep = append(b.rep, value...)
	b.n++
	return true
}

// Delete records a delete of key. It reports false, recording nothing,
// when key is 4 GiB or more.
func (b *Buffer) Delete(key []byte) bool {
	if uint64(len(key)) > math.MaxUint32 {
		return false
	}
	b.start()
	b.rep = append(b.rep, tagDelete)
	b.rep = binary.AppendUvarint(b.rep, uint64(len(key)))
	b.rep = append(b.rep, key...)
	b.n++
	return true
}

// start writes the header before the first record.
func (b *Buffer) start() {
	if len(b.rep) == 0 {
		b.rep = append(b.rep, make([]byte, headerSize)...)
	}
}

// Len reports the number of records since the last Reset.
func (b *Buffer) Len() int { return b.n }

// Bytes returns the encoding, header count included, or nil when b is
// empty. It points into b: it is valid until b next changes.
func (b *Buffer) Bytes() []byte {
	if b.n == 0 {
		return nil
	}
	binary.LittleEndian.PutUint32(b.rep[8:headerSize], uint32(b.n))
	return b.rep
}

// Reset empties b, keeping its memory.
func (b *Buffer) Reset() {
	b.rep = b.rep[:0]
	b.n = 0
}

// header is cbatch.h, embedded so that editing it rebuilds the packages
// whose C code includes it: cmd/go does not track a header found through
// -I, but it rebuilds a package when one it imports compiles differently.
//
//go:embed cbatch.h
var header string
