package points

import "github.com/tsbench/storage/engine/tskey"

// Layout is how a point's key orders the store. The zero Layout is
// series-major (tskey.PutKey: series, timestamp, sequence), what every
// workload writes by default; a positive BucketWidth makes it
// time-bucket-major (tskey.PutBucketKey: bucket, series, timestamp), in
// which one DeleteRange drops every point of a bucket. Generator and Batch
// are not affected: they always write series-major keys.
type Layout struct {
	// BucketWidth is the data time one bucket spans, in nanoseconds from
	// Epoch; 0 is series-major.
	BucketWidth uint64
}

// BucketMajor reports whether l is the time-bucket-major layout.
func (l Layout) BucketMajor() bool { return l.BucketWidth > 0 }

// Bucket is the bucket of timestamp ts (at or after Epoch).
func (l Layout) Bucket(ts uint64) uint64 { return (ts - Epoch) / l.BucketWidth }

// BucketStart is the first timestamp of bucket b.
func (l Layout) BucketStart(b uint64) uint64 { return Epoch + b*l.BucketWidth }

// AppendKey appends the key of (series, ts, seq) in layout l; a
// bucket-major key leaves seq out.
func (l Layout) AppendKey(dst []byte, series, ts, seq uint64) []byte {
	if l.BucketMajor() {
		return tskey.AppendBucketKey(dst, l.Bucket(ts), series, ts)
	}
	return tskey.AppendKey(dst, series, ts, seq)
}

// ParseKey decodes a key of layout l; seq is 0 for a bucket-major key,
// and a bucket-major key whose bucket is not its timestamp's fails with
// tskey.ErrBadKey.
func (l Layout) ParseKey(k []byte) (series, ts, seq uint64, err error) {
	if !l.BucketMajor() {
		return tskey.ParseKey(k)
	}
	b, series, ts, err := tskey.ParseBucketKey(k)
	if err == nil && (ts < Epoch || b != l.Bucket(ts)) {
		err = tskey.ErrBadKey
	}
	return series, ts, 0, err
}
