package tskey

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
// dst[:KeySize]. It panics if dst is shorter. The bytes are PutKey's, with
// the bucket, series and timestamp in the places of the series, timestamp
// and sequence number.
func PutBucketKey(dst []byte, bucket, series, ts uint64) { PutKey(dst, bucket, series, ts) }

// AppendBucketKey appends the bucket key of (bucket, series, ts) to dst.
func AppendBucketKey(dst []byte, bucket, series, ts uint64) []byte {
	return AppendKey(dst, bucket, series, ts)
}

// ParseBucketKey decodes a key written by PutBucketKey or
// AppendBucketKey. It fails with ErrBadKey unless k is exactly KeySize
// bytes long.
func ParseBucketKey(k []byte) (bucket, series, ts uint64, err error) { return ParseKey(k) }

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
