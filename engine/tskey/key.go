package tskey

import (
	"encoding/binary"
	"fmt"
	"math"
)

// KeySize is the length of every key.
//
// A key is three big-endian uint64s, so that bytewise order is numeric
// order and one series' points are contiguous and sorted by time:
//
//	bytes  0..7   series id
//	bytes  8..15  timestamp (nanoseconds since the Unix epoch)
//	bytes 16..23  sequence number (breaks ties between equal timestamps)
//
// This is the layout of InfluxDB's 2014 storage benchmark and of many
// time-series stores since; a TSDB can reuse PutKey and ParseKey as is.
const KeySize = 24

// PutKey writes the key of (series, ts, seq) into dst[:KeySize]. It panics
// if dst is shorter, like binary.BigEndian.PutUint64.
func PutKey(dst []byte, series, ts, seq uint64) {
	_ = dst[KeySize-1] // one bounds check for the three stores
	binary.BigEndian.PutUint64(dst[0:8], series)
	binary.BigEndian.PutUint64(dst[8:16], ts)
	binary.BigEndian.PutUint64(dst[16:24], seq)
}

// AppendKey appends the key of (series, ts, seq) to dst.
func AppendKey(dst []byte, series, ts, seq uint64) []byte {
	dst = binary.BigEndian.AppendUint64(dst, series)
	dst = binary.BigEndian.AppendUint64(dst, ts)
	return binary.BigEndian.AppendUint64(dst, seq)
}

// ParseKey decodes a key written by PutKey or AppendKey. It fails with
// ErrBadKey unless k is exactly KeySize bytes long.
func ParseKey(k []byte) (series, ts, seq uint64, err error) {
	if len(k) != KeySize {
		return 0, 0, 0, fmt.Errorf("%w: %d bytes, want %d", ErrBadKey, len(k), KeySize)
	}
	return binary.BigEndian.Uint64(k[0:8]), binary.BigEndian.Uint64(k[8:16]), binary.BigEndian.Uint64(k[16:24]), nil
}

// SeriesBounds returns the iterator bounds holding every key of series:
// lower is inclusive, upper exclusive, and upper is nil for the last
// possible series (math.MaxUint64), meaning unbounded. Both slices live in
// buf, which is reused when its capacity is at least 2*KeySize, so a scan
// loop over many series does not allocate.
func SeriesBounds(buf []byte, series uint64) (lower, upper []byte) {
	buf = grow(buf)
	lower = buf[:KeySize:KeySize]
	PutKey(lower, series, 0, 0)
	if series == math.MaxUint64 {
		return lower, nil
	}
	upper = buf[KeySize : 2*KeySize : 2*KeySize]
	PutKey(upper, series+1, 0, 0)
	return lower, upper
}

// TimeBounds returns the key range [start, end) holding the points of
// series with from <= timestamp < to, whatever their sequence numbers: the
// range a retention policy hands to DeleteRange. Both slices live in buf,
// reused like SeriesBounds'.
func TimeBounds(buf []byte, series, from, to uint64) (start, end []byte) {
	buf = grow(buf)
	start = buf[:KeySize:KeySize]
	end = buf[KeySize : 2*KeySize : 2*KeySize]
	PutKey(start, series, from, 0)
	PutKey(end, series, to, 0)
	return start, end
}

func grow(buf []byte) []byte {
	if cap(buf) < 2*KeySize {
		return make([]byte, 2*KeySize)
	}
	return buf[:2*KeySize]
}
