package mixed

import (
	"encoding/binary"
	"errors"
	"sync/atomic"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

// synthetic is an engine that stores nothing: it knows every series
// holds a prefix of its points, counts them, and regenerates entries on
// iteration. It costs little and allocates nothing per point, so a Run on
// it measures the harness's own memory.
type synthetic struct {
	gen    points.Generator
	counts []atomic.Int64 // points of each series
}

var (
	_ engine.Engine      = (*synthetic)(nil)
	_ engine.Snapshotter = (*synthetic)(nil)
)

func newSynthetic(cfg Config) *synthetic {
	return &synthetic{gen: points.Generator{Series: cfg.Series, Seed: cfg.Seed}, counts: make([]atomic.Int64, cfg.Series)}
}

var errSynthetic = errors.New("synthetic: unsupported")

func (e *synthetic) Get([]byte) ([]byte, error)            { return nil, errSynthetic }
func (e *synthetic) Put(_, _ []byte) error                 { return errSynthetic }
func (e *synthetic) Delete([]byte) error                   { return errSynthetic }
func (e *synthetic) DeleteRange(_, _ []byte) error         { return errSynthetic }
func (e *synthetic) Compact(_, _ []byte) error             { return nil }
func (e *synthetic) Close() error                          { return nil }
func (e *synthetic) NewBatch() engine.Batch                { return &syntheticBatch{e: e} }
func (e *synthetic) NewSnapshot() (engine.Snapshot, error) { return syntheticSnapshot{e}, nil }

// syntheticSnapshot reads the engine as it is: each iterator fixes its
// counts when made, which is consistent enough for checks that accept
// points written after the acknowledgements they read.
type syntheticSnapshot struct{ *synthetic }

func (syntheticSnapshot) Close() error { return nil }

// point is the series and index in it of a key.
func (e *synthetic) point(key []byte) (s, k int64) {
	s = int64(binary.BigEndian.Uint64(key[0:8]))
	ts := binary.BigEndian.Uint64(key[8:16])
	return s, firstAt(e.gen, min(s, e.gen.Series-1), ts)
}

func (e *synthetic) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	s, lo := e.point(o.LowerBound)
	hs, hk := e.point(o.UpperBound)
	n := e.counts[s].Load()
	hi := n
	if hs == s {
		hi = min(hk, n)
	}
	it := &syntheticIter{e: e, series: s, lo: lo, hi: hi}
	it.k = -1
	return it, nil
}

type syntheticBatch struct {
	e      *synthetic
	series []int64
	ks     []int64
	size   int
}

func (b *syntheticBatch) Put(key, value []byte) {
	s, k := b.e.point(key)
	b.series, b.ks = append(b.series, s), append(b.ks, k)
	b.size += len(key) + len(value)
}
func (b *syntheticBatch) Delete([]byte) {}
func (b *syntheticBatch) Len() int      { return len(b.series) }
func (b *syntheticBatch) Size() int     { return b.size }
func (b *syntheticBatch) Reset()        { b.series, b.ks, b.size = b.series[:0], b.ks[:0], 0 }
func (b *syntheticBatch) Close() error  { return nil }
func (b *syntheticBatch) Commit() error {
	for j, s := range b.series {
		b.e.counts[s].Store(b.ks[j] + 1)
	}
	b.Reset()
	return nil
}

type syntheticIter struct {
	e          *synthetic
	series     int64
	lo, hi, k  int64
	keyBuf     [tskey.KeySize]byte
	valBuf     [16]byte
	key, value []byte
}

func (it *syntheticIter) at(k int64) bool {
	if k < it.lo || k >= it.hi {
		it.k = -1
		return false
	}
	it.k = k
	ser, ts, seq := it.e.gen.Point(k*it.e.gen.Series + it.series)
	tskey.PutKey(it.keyBuf[:], ser, ts, seq)
	it.key = it.keyBuf[:]
	it.value = points.AppendValue(it.valBuf[:0], it.e.gen.Value(seq))
	return true
}

func (it *syntheticIter) First() bool      { return it.at(it.lo) }
func (it *syntheticIter) Last() bool       { return it.at(it.hi - 1) }
func (it *syntheticIter) Next() bool       { return it.k >= 0 && it.at(it.k+1) }
func (it *syntheticIter) Prev() bool       { return it.k >= 0 && it.at(it.k-1) }
func (it *syntheticIter) Seek([]byte) bool { return false }
func (it *syntheticIter) Valid() bool      { return it.k >= 0 }
func (it *syntheticIter) Key() []byte      { return it.key }
func (it *syntheticIter) Value() []byte    { return it.value }
func (it *syntheticIter) Err() error       { return nil }
func (it *syntheticIter) Close() error     { return nil }
