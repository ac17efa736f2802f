package tskey

import (
	"encoding/binary"
	"fmt"
)

// A bucket key is the time-bucket-major layout of the same 24 bytes, for
// stores that expire data by time rather than by series (OpenTSDB's and
// KairosDB's rows):
//
//	bytes  0..7   time bucket (the timestamp divided by the bucket width)
//	bytes  8..15  series id
//	bytes 16..23  timestamp
//
// A whole bucket, every series in it, is one contiguous key range, so one
// DeleteRange (BucketBounds) expires it; one series' points are
// contiguous within each bucket. The key holds no sequence number: a
// series has one point per timestamp. PutKey's series-major layout is
// unchanged and stays the default of every workload.

// PutBucketKey writes the bucket key of (bucket, series, ts) into
// dst[:KeySize]. It panics if dst is shorter.
func PutBucketKey(dst []byte, bucket, series, ts uint64) {
	_ = dst[KeySize-1]
	binary.BigEndian.PutUint64(dst[0:8], bucket)
	binary.BigEndian.PutUint64(dst[8:16], series)
	binary.BigEndian.PutUint64(dst[16:24], ts)
}

// AppendBucketKey appends the bucket key of (bucket, series, ts) to dst.
func AppendBucketKey(dst []byte, bucket, series, ts uint64) []byte {
	dst = binary.BigEndian.AppendUint64(dst, bucket)
	dst = binary.BigEndian.AppendUint64(dst, series)
	return binary.BigEndian.AppendUint64(dst, ts)
}

// ParseBucketKey decodes a key written by PutBucketKey or
// AppendBucketKey. It fails with ErrBadKey unless k is exactly KeySize
// bytes long.
func ParseBucketKey(k []byte) (bucket, series, ts uint64, err error) {
	if len(k) != KeySize {
		return 0, 0, 0, fmt.Errorf("%w: %d bytes, want %d", ErrBadKey, len(k), KeySize)
	}
	return binary.BigEndian.Uint64(k[0:8]), binary.BigEndian.Uint64(k[8:16]), binary.BigEndian.Uint64(k[16:24]), nil
}

// BucketBounds returns the key range [start, end) holding every point of
// the buckets from <= bucket < to: the range one DeleteRange drops to
// expire them. Both slices live in buf, reused like SeriesBounds'.
func BucketBounds(buf []byte, from, to uint64) (start, end []byte) {
	buf = grow(buf)
	start = buf[:KeySize:KeySize]
	end = buf[KeySize : 2*KeySize : 2*KeySize]
	PutBucketKey(start, from, 0, 0)
	PutBucketKey(end, to, 0, 0)
	return start, end
}
