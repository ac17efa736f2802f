package micro

import (
	"encoding/binary"
	"math/rand/v2"
)

const (
	// pieceSize is the length of the pieces values are cut from, as in
	// db_bench: each piece is random bytes followed by repeats of them.
	pieceSize = 100
	// poolSize is about how many bytes of pieces a value pool holds: every
	// value is a slice of it, so values cost no generation or allocation.
	poolSize = 4 << 20
)

// values gives entry i at generation gen (0 after a fill, +1 for each
// overwrite) its value: size bytes of a pool of compressible pieces,
// starting at a piece chosen by hashing (seed, i, gen). A read is checked
// by recomputing the slice, so nothing written is remembered.
//
// Each piece of p bytes (p = min(size, 100)) starts with max(1, p*ratio)
// random bytes, all 256 byte values equally likely, and repeats them to
// its end, so a compressor shrinks values to about ratio of their size
// (db_bench's --compression_ratio; db_bench draws printable characters,
// which an entropy coder squeezes further, so its ratios are only nominal).
type values struct {
	size   int
	piece  int
	pieces int
	seed   uint64
	// pool holds the pieces, then its own start again up to size bytes,
	// so that a value starting at any piece is one contiguous slice.
	pool []byte
}

func newValues(size int, ratio float64, seed uint64) *values {
	v := &values{size: size, piece: min(max(size, 1), pieceSize), seed: seed}
	v.pieces = max(poolSize/v.piece, 1)
	body := v.pieces * v.piece
	v.pool = make([]byte, body+size)
	raw := max(1, int(float64(v.piece)*ratio))
	rng := rand.New(rand.NewPCG(seed, uint64(size)))
	var word [8]byte
	for p := range v.pieces {
		b := v.pool[p*v.piece : (p+1)*v.piece]
		for j := 0; j < raw; j += 8 {
			binary.LittleEndian.PutUint64(word[:], rng.Uint64())
			copy(b[j:raw], word[:])
		}
		for j := raw; j < len(b); j += raw {
			copy(b[j:], b[:raw])
		}
	}
	for j := body; j < len(v.pool); j += body {
		copy(v.pool[j:], v.pool[:body])
	}
	return v
}

// value returns the value of entry i at generation gen. The slice is
// shared: callers must not modify it.
func (v *values) value(i int64, gen uint64) []byte {
	p := mix(mix(v.seed^gen*0xd1b54a32d192ed03)+uint64(i)) % uint64(v.pieces)
	off := int(p) * v.piece
	return v.pool[off : off+v.size : off+v.size]
}
