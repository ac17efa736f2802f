package micro

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

// KeyType is how entry number i (0, 1, 2, ...) becomes a key. Every type
// preserves order: the bytes of key i sort before those of key i+1, so a
// sequential fill writes in key order and a forward scan meets entries in
// index order.
type KeyType string

const (
	// KeyInt4 is i as a 4-byte big-endian integer (the LmdbJava report's
	// "Int" keys, in the byte order that sorts numerically). Num <= 2^32.
	KeyInt4 KeyType = "int4"
	// KeyStr16 is i as 16 zero-padded decimal digits, no terminator
	// (db_bench's keys and the LmdbJava report's "Str"). Num <= 10^16.
	KeyStr16 KeyType = "str16"
	// KeyTS24 is the time-series workload's 24-byte key (tskey.PutKey):
	// entries 0..999 are series 0 at consecutive timestamps from
	// points.Epoch, entries 1000..1999 series 1, and so on; the sequence
	// number is i+1.
	KeyTS24 KeyType = "ts24"
)

// KeyTypes lists the key types.
var KeyTypes = []KeyType{KeyInt4, KeyStr16, KeyTS24}

// seriesPoints is how many consecutive entries share a series in KeyTS24.
const seriesPoints = 1000

// Size is the length of every key of the type, 0 for an unknown type.
func (t KeyType) Size() int {
	switch t {
	case KeyInt4:
		return 4
	case KeyStr16:
		return 16
	case KeyTS24:
		return tskey.KeySize
	}
	return 0
}

// MaxNum is how many distinct keys the type has (capped at
// points.MaxPoints for KeyTS24, whose timestamps must not overflow).
func (t KeyType) MaxNum() int64 {
	switch t {
	case KeyInt4:
		return 1 << 32
	case KeyStr16:
		return 1e16
	case KeyTS24:
		return points.MaxPoints
	}
	return 0
}

// Put writes key i into dst[:t.Size()]. It does not allocate; it panics if
// dst is too short or i is out of range, like binary.BigEndian.PutUint64.
func (t KeyType) Put(dst []byte, i int64) {
	switch t {
	case KeyInt4:
		binary.BigEndian.PutUint32(dst, uint32(i))
	case KeyStr16:
		_ = dst[15]
		for j := 15; j >= 0; j-- {
			dst[j] = byte('0' + i%10)
			i /= 10
		}
	case KeyTS24:
		s, at := uint64(i/seriesPoints), uint64(i%seriesPoints)
		tskey.PutKey(dst, s, points.Epoch+at*points.Interval, uint64(i)+1)
	default:
		panic("micro: unknown key type " + string(t))
	}
}

// Append appends key i to dst.
func (t KeyType) Append(dst []byte, i int64) []byte {
	n := len(dst)
	dst = append(dst, make([]byte, t.Size())...)
	t.Put(dst[n:], i)
	return dst
}

// ParseKeyType reads a key type name, ignoring case.
func ParseKeyType(s string) (KeyType, error) {
	for _, t := range KeyTypes {
		if strings.EqualFold(s, string(t)) {
			return t, nil
		}
	}
	names := make([]string, len(KeyTypes))
	for i, t := range KeyTypes {
		names[i] = string(t)
	}
	return "", fmt.Errorf("%w: key type %q: use %s", ErrInvalidConfig, s, strings.Join(names, ", "))
}
