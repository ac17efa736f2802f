package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// kind is a series' value type, fixed by its first point and kept in the
// series index, so that values need no type tag of their own.
type kind byte

const (
	kindInt   kind = 'i'
	kindFloat kind = 'f'
)

func (k kind) String() string {
	switch k {
	case kindInt:
		return "integer"
	case kindFloat:
		return "float"
	}
	return fmt.Sprintf("kind(%d)", byte(k))
}

// appendInt appends v as a zigzag varint: 1 byte for -64..63, at most 10.
func appendInt(dst []byte, v int64) []byte {
	return binary.AppendVarint(dst, v)
}

func parseInt(b []byte) (int64, error) {
	v, n := binary.Varint(b)
	if n <= 0 || n != len(b) {
		return 0, fmt.Errorf("%w: integer % x", errBadValue, b)
	}
	return v, nil
}

// shortFloatBits is the most bits a float's byte-reversed pattern may have
// to be stored as a uvarint of at most 7 bytes, so that length 8 is left to
// the raw form.
const shortFloatBits = 7 * 7

// appendFloat appends v's IEEE 754 bits. Measurements are often whole
// numbers or short binary fractions, whose bits end in zero bytes;
// byte-reversed, those are a small number, written as a uvarint of 1 to 7
// bytes (0 takes 1, 42 takes 3, 23.5 takes 4). Any other float is its 8 bytes,
// big-endian: the length tells the two forms apart, and no float takes more.
func appendFloat(dst []byte, v float64) []byte {
	u := math.Float64bits(v)
	if r := bits.ReverseBytes64(u); r < 1<<shortFloatBits {
		return binary.AppendUvarint(dst, r)
	}
	return binary.BigEndian.AppendUint64(dst, u)
}

func parseFloat(b []byte) (float64, error) {
	if len(b) == 8 {
		return math.Float64frombits(binary.BigEndian.Uint64(b)), nil
	}
	r, n := binary.Uvarint(b)
	if n <= 0 || n != len(b) || r >= 1<<shortFloatBits {
		return 0, fmt.Errorf("%w: float % x", errBadValue, b)
	}
	return math.Float64frombits(bits.ReverseBytes64(r)), nil
}
