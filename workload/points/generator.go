package points

import (
	"fmt"

	"github.com/tsbench/storage/engine/tskey"
)

// Epoch is the timestamp of the first point: 2014-06-20T00:00:00Z, the day
// InfluxDB published its storage benchmark, in nanoseconds since the Unix
// epoch. Fixed, so that runs are reproducible.
const Epoch uint64 = 1403222400 * 1e9

// Interval is the time between consecutive points, in nanoseconds (1 ms).
const Interval uint64 = 1e6

// MaxPoints bounds the points of a run so that every timestamp, of both
// write steps of the time-series workload too, fits in a uint64.
const MaxPoints = 1 << 40

// MaxBatch bounds the points of one write batch: far beyond a sensible
// run, but a batch of 1G points would ask for 24 GB.
const MaxBatch = 1_000_000

// Generator defines every point of a run as a pure function of its index,
// so a run streams points in constant memory and can check any point it
// reads back without having stored it. Point i, counting from 0 in write
// order across both write steps, is:
//
//	series    i mod Series
//	timestamp Epoch + i*Interval
//	sequence  i + 1
//	value     Value(sequence)
//
// Consecutive points go to consecutive series, so a batch of up to Series
// points holds one point per series, and every series' points are in
// increasing time. Keys do not depend on Seed; values do, and on Values.
type Generator struct {
	Series int64
	Seed   uint64
	// Values makes real values or the float64 encoding (Values.Load);
	// nil makes the 2014 workload's random int64s in protobuf.
	Values *Source
}

// Point returns the key fields of point i.
func (g Generator) Point(i int64) (series, ts, seq uint64) {
	return uint64(i % g.Series), g.Timestamp(i), uint64(i) + 1
}

// Timestamp returns the timestamp of point i.
func (g Generator) Timestamp(i int64) uint64 { return Epoch + uint64(i)*Interval }

// Value returns the random value of the point with sequence number seq:
// output number seq of the splitmix64 generator seeded with Seed. It costs
// a few multiplications, so reads are verified without a table of values.
// Encode gives the stored bytes, which are this value's unless Values
// makes real ones.
func (g Generator) Value(seq uint64) int64 {
	z := g.Seed + seq*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return int64(z ^ z>>31)
}

// Count returns how many of the points with index in [lo, hi) belong to
// series s.
func (g Generator) Count(lo, hi, s int64) int64 {
	if hi <= lo {
		return 0
	}
	return g.below(hi, s) - g.below(lo, s)
}

// below counts the indices i < x with i mod Series == s.
func (g Generator) below(x, s int64) int64 {
	n := x / g.Series
	if s < x%g.Series {
		n++
	}
	return n
}

// First returns the smallest index >= lo of a point of series s.
func (g Generator) First(lo, s int64) int64 {
	return lo + ((s-lo%g.Series)%g.Series+g.Series)%g.Series
}

// LogicalBytes returns the key and value bytes of the points with index in
// [lo, hi): what an ideal store would write for them.
func (g Generator) LogicalBytes(lo, hi int64) int64 {
	var n int64
	for i := lo; i < hi; i++ {
		n += int64(tskey.KeySize + g.valueSize(uint64(i)+1))
	}
	return n
}

// Batch holds one batch of generated, encoded points in buffers reused
// from batch to batch, so that writing allocates nothing per point.
type Batch struct {
	keys    []byte // n*tskey.KeySize bytes
	vals    []byte // the values, back to back
	ends    []int  // ends[j] is where value j ends in vals
	logical int64  // key+value bytes of the batch
}

// Fill generates points [start, start+n) in place of the batch's.
func (b *Batch) Fill(g Generator, start, n int64) {
	if need := int(n) * tskey.KeySize; cap(b.keys) < need {
		b.keys = make([]byte, need)
		b.vals = make([]byte, 0, int(n)*11)
		b.ends = make([]int, n)
	}
	b.keys = b.keys[:int(n)*tskey.KeySize]
	b.vals = b.vals[:0]
	b.ends = b.ends[:n]
	// The series, the point's place in it and the real seed's column it
	// tiles advance without a division per point.
	series, k := start%g.Series, start/g.Series
	var col, cols int64
	if g.Values != nil {
		col, cols = g.Values.column(series), int64(len(g.Values.columns))
	}
	for j := range b.ends {
		i := start + int64(j)
		seq := uint64(i) + 1
		tskey.PutKey(b.keys[j*tskey.KeySize:], uint64(series), g.Timestamp(i), seq)
		if g.Values == nil {
			b.vals = AppendValue(b.vals, g.Value(seq))
		} else {
			b.vals = g.encode(b.vals, series, col, k, seq)
			if col++; col == cols {
				col = 0
			}
		}
		b.ends[j] = len(b.vals)
		if series++; series == g.Series {
			series, k, col = 0, k+1, 0
		}
	}
	b.logical = int64(len(b.keys) + len(b.vals))
}

// Len is the count of points in the batch.
func (b *Batch) Len() int { return len(b.ends) }

// Logical is the key and value bytes of the batch.
func (b *Batch) Logical() int64 { return b.logical }

// Key is point j's key, valid until the next Fill.
func (b *Batch) Key(j int) []byte {
	return b.keys[j*tskey.KeySize : (j+1)*tskey.KeySize : (j+1)*tskey.KeySize]
}

// Value is point j's encoded value, valid until the next Fill.
func (b *Batch) Value(j int) []byte {
	from := 0
	if j > 0 {
		from = b.ends[j-1]
	}
	return b.vals[from:b.ends[j]:b.ends[j]]
}

// CheckValue checks val, a value read back, against point seq's: the one
// value check of every workload that reads points back, under its own
// model of which points a read should return. It returns "" for seq's
// value, else what is wrong ("value 5, want 7", or why val does not
// decode); only a wrong value costs an allocation.
func (g Generator) CheckValue(seq uint64, val []byte) string {
	if g.Values != nil {
		return g.checkEncoded(seq, val)
	}
	got, err := ParseValue(val)
	switch want := g.Value(seq); {
	case err != nil:
		return err.Error()
	case got != want:
		return fmt.Sprintf("value %d, want %d", got, want)
	}
	return ""
}
