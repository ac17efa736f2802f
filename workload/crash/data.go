package crash

import (
	"encoding/binary"

	"github.com/tsbench/storage/engine"
)

// keySize is the bytes of a key: the batch number, batchKeySize bytes,
// and the entry's index.
const (
	keySize      = 12
	batchKeySize = 8
)

// key writes the key of entry i of batch b into k, keySize bytes.
func key(k []byte, b uint64, i uint32) {
	binary.BigEndian.PutUint64(k, b)
	binary.BigEndian.PutUint32(k[8:], i)
}

// parseKey reads a key written by key.
func parseKey(k []byte) (b uint64, i uint32, ok bool) {
	if len(k) != keySize {
		return 0, 0, false
	}
	return binary.BigEndian.Uint64(k), binary.BigEndian.Uint32(k[8:]), true
}

// value fills v with the value of entry i of batch b: the key, then bytes
// of a splitmix64 stream seeded by seed, b and i.
func value(v []byte, seed, b uint64, i uint32) {
	key(v, b, i)
	x := seed ^ b<<20 ^ uint64(i)
	var w [8]byte
	for j := keySize; j < len(v); j += 8 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		binary.LittleEndian.PutUint64(w[:], z^z>>31)
		copy(v[j:], w[:])
	}
}

// putBatch puts the entries of batch b into bt, through k and v, buffers
// of keySize and cfg.ValueSize bytes.
func putBatch(bt engine.Batch, cfg Config, b uint64, k, v []byte) {
	for i := range uint32(cfg.Batch) {
		key(k, b, i)
		value(v, cfg.Seed, b, i)
		bt.Put(k, v)
	}
}
