package workload

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// int64Field is FieldValue.int64_value's field number in fieldvalue.proto.
const int64Field protowire.Number = 5

// AppendValue appends the protobuf encoding of a FieldValue holding v
// (fieldvalue.proto) to dst. It writes what proto.Marshal writes for that
// message, without building it: no allocation when dst has room.
func AppendValue(dst []byte, v int64) []byte {
	dst = protowire.AppendTag(dst, int64Field, protowire.VarintType)
	return protowire.AppendVarint(dst, uint64(v))
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
