package points

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// int64Field is FieldValue.int64_value's field number in fieldvalue.proto.
const int64Field protowire.Number = 5

// valueTag is the key of int64_value: its field number and wire type.
const valueTag = byte(int64Field<<3) | byte(protowire.VarintType)

// maxValueSize is the largest encoding: the tag and a 10-byte varint.
const maxValueSize = 11

// AppendValue appends the protobuf encoding of a FieldValue holding v
// (fieldvalue.proto) to dst. It writes what proto.Marshal writes for that
// message, without building it: no allocation when dst has room.
//
// A generated value is a random 64-bit number, so its varint nearly always
// takes 9 or 10 bytes: rather than a byte at a time, the low 56 bits are
// spread into eight 7-bit groups at once, with continuation bits on all
// but the last byte, and written with one 8-byte store.
func AppendValue(dst []byte, v int64) []byte {
	x := uint64(v)
	n := 1 // varint bytes
	if x >= 0x80 {
		n = (bits.Len64(x) + 6) / 7
	}
	l := len(dst)
	if cap(dst)-l < maxValueSize {
		dst = slices.Grow(dst, maxValueSize)
	}
	p := dst[l : l+maxValueSize]
	groups := x&0x7f | x&(0x7f<<7)<<1 | x&(0x7f<<14)<<2 | x&(0x7f<<21)<<3 |
		x&(0x7f<<28)<<4 | x&(0x7f<<35)<<5 | x&(0x7f<<42)<<6 | x&(0x7f<<49)<<7
	more := uint64(0x8080808080808080)
	if n < 9 {
		more &= 1<<(8*(n-1)) - 1
	}
	p[0] = valueTag
	binary.LittleEndian.PutUint64(p[1:9], groups|more)
	// Bits 56 to 62, continued exactly when bit 63 follows: half of all
	// random values, so this takes no branch.
	p[9] = byte(x>>56)&0x7f | byte(x>>63)<<7
	p[10] = byte(x >> 63)
	return dst[:l+1+n]
}

// ValueSize is len(AppendValue(nil, v)): 2 to 11 bytes.
func ValueSize(v int64) int {
	return protowire.SizeTag(int64Field) + protowire.SizeVarint(uint64(v))
}

// ParseValue decodes a serialized FieldValue and returns its int64_value,
// following protobuf rules: other fields are skipped and the last
// occurrence of int64_value wins. It fails with ErrBadValue on malformed
// input or when int64_value is absent.
func ParseValue(b []byte) (int64, error) {
	var v int64
	found := false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, fmt.Errorf("%w: %w", ErrBadValue, protowire.ParseError(n))
		}
		b = b[n:]
		if num == int64Field {
			if typ != protowire.VarintType {
				return 0, fmt.Errorf("%w: int64_value has wire type %d, want varint", ErrBadValue, typ)
			}
			x, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return 0, fmt.Errorf("%w: %w", ErrBadValue, protowire.ParseError(n))
			}
			v, found = int64(x), true
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return 0, fmt.Errorf("%w: %w", ErrBadValue, protowire.ParseError(n))
		}
		b = b[n:]
	}
	if !found {
		return 0, fmt.Errorf("%w: no int64_value", ErrBadValue)
	}
	return v, nil
}
