package timeseries

import (
	"encoding/binary"
	"errors"
	"sync/atomic"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

// synthetic is an engine that stores nothing: it knows the workload writes
// points in index order and deletes the oldest ones, tracks only the live
// index range, and regenerates entries on iteration. It costs almost
// nothing and allocates nothing per point, so a Run on it measures the
// harness alone.
type synthetic struct {
	gen    points.Generator
	lo, hi atomic.Int64 // live points are those with index in [lo, hi)
}

var _ engine.Engine = (*synthetic)(nil)

func newSynthetic(cfg Config) *synthetic {
	return &synthetic{gen: points.Generator{Series: cfg.Series, Seed: cfg.Seed}}
}

var errSynthetic = errors.New("synthetic: unsupported")

func (e *synthetic) Get(key []byte) ([]byte, error) {
	_, _, seq, err := tskey.ParseKey(key)
	if err != nil || seq == 0 || int64(seq-1) < e.lo.Load() || int64(seq-1) >= e.hi.Load() {
		return nil, engine.ErrNotFound
	}
	return points.AppendValue(nil, e.gen.Value(seq)), nil
}
func (e *synthetic) Put(key, value []byte) error { return errSynthetic }
func (e *synthetic) Delete(key []byte) error     { return errSynthetic }

// DeleteRange moves lo to the index whose timestamp ends the range.
func (e *synthetic) DeleteRange(start, end []byte) error {
	ts := binary.BigEndian.Uint64(end[8:16])
	e.lo.Store(int64((ts - points.Epoch) / points.Interval))
	return nil
}
func (e *synthetic) NewBatch() engine.Batch          { return &syntheticBatch{e: e} }
func (e *synthetic) Compact(start, end []byte) error { return nil }
func (e *synthetic) Close() error                    { return nil }

func (e *synthetic) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	s := int64(binary.BigEndian.Uint64(o.LowerBound[0:8]))
	return &syntheticIter{e: e, series: s, next: e.gen.First(e.lo.Load(), s), hi: e.hi.Load()}, nil
}

type syntheticBatch struct {
	e       *synthetic
	n, size int
}

func (b *syntheticBatch) Put(key, value []byte) { b.n, b.size = b.n+1, b.size+len(key)+len(value) }
func (b *syntheticBatch) Delete(key []byte)     {}
func (b *syntheticBatch) Len() int              { return b.n }
func (b *syntheticBatch) Size() int             { return b.size }
func (b *syntheticBatch) Reset()                { b.n, b.size = 0, 0 }
func (b *syntheticBatch) Close() error          { return nil }
func (b *syntheticBatch) Commit() error {
	b.e.hi.Add(int64(b.n))
	b.Reset()
	return nil
}

type syntheticIter struct {
	e          *synthetic
	series     int64
	next, hi   int64
	key, value []byte
	valid      bool
	keyBuf     [tskey.KeySize]byte
	valBuf     [16]byte
}

func (it *syntheticIter) First() bool { return it.Next() }
func (it *syntheticIter) Next() bool {
	if it.next >= it.hi {
		it.valid = false
		return false
	}
	series, ts, seq := it.e.gen.Point(it.next)
	tskey.PutKey(it.keyBuf[:], series, ts, seq)
	it.key = it.keyBuf[:]
	it.value = points.AppendValue(it.valBuf[:0], it.e.gen.Value(seq))
	it.next += it.e.gen.Series
	it.valid = true
	return true
}
func (it *syntheticIter) Last() bool       { return false }
func (it *syntheticIter) Seek([]byte) bool { return false }
func (it *syntheticIter) Prev() bool       { return false }
func (it *syntheticIter) Valid() bool      { return it.valid }
func (it *syntheticIter) Key() []byte      { return it.key }
func (it *syntheticIter) Value() []byte    { return it.value }
func (it *syntheticIter) Err() error       { return nil }
func (it *syntheticIter) Close() error     { return nil }
