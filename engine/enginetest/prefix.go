package enginetest

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/tsbench/storage/engine"
)

// An engine that orders keys only within prefixes of N bytes
// (engine.OrderPrefix, Cassandra's partitions) runs the suite through a
// prefixView: every key the suite writes gets one fixed prefix of N bytes,
// so that the suite's keys, short ones included, all fall in one prefix,
// where the engine keeps the contract's order. What the view cannot show
// is skipped with its reason (prefixSkips); WithinPrefix checks the raw
// engine's refusals. An engine with one global order runs the suite as it
// is.

// viewPrefix is the prefix the view puts before every key, cut to the
// engine's prefix length (or padded with '/'): printable bytes, so that
// its last byte is never 0xff and the prefix after it is that byte plus
// one.
const viewPrefix = "enginetest-prefix-view/"

// prefixSkips are the subtests that do not run through a prefixView, with
// why.
var prefixSkips = map[string]string{
	"KeyLimits":   "the engine orders keys only within a prefix, so its keys are at least that long, beyond engine.CommonLimits: WithinPrefix checks its key domain instead",
	"WriteLimits": "it injects a failure into the engine from engine.Open (inject.Broken), which the prefix view hides; the engine's byte-ordered mode runs it",
	"Broken":      "it injects a failure into the engine from engine.Open (inject.Broken), which the prefix view hides; the engine's byte-ordered mode runs it",
	"Checkpoint":  "Checkpoint's fallback copies the whole engine in key order, which an engine ordered within prefixes has not: it fails with engine.ErrUnordered",
}

// viewed returns open, which shows an engine ordered within prefixes of
// N bytes (engine.OrderPrefix) through a prefixView and stores N in n.
func viewed(open Factory, n *atomic.Int64) Factory {
	return func(t *testing.T, dir string) (engine.Engine, error) {
		db, err := open(t, dir)
		if err != nil || db == nil {
			return db, err
		}
		n.Store(int64(engine.OrderPrefix(db)))
		if n.Load() == 0 {
			return db, nil
		}
		p := []byte(viewPrefix)
		for len(p) < int(n.Load()) {
			p = append(p, '/')
		}
		return &prefixView{e: db, p: p[:n.Load()]}, nil
	}
}

// prefixView is an engine ordered within prefixes seen through one
// prefix: a key k of the view is p+k in e.
type prefixView struct {
	e engine.Engine
	p []byte
}

var (
	_ engine.Snapshotter     = (*prefixView)(nil)
	_ engine.SizeEstimator   = (*prefixView)(nil)
	_ engine.MetricsReporter = (*prefixView)(nil)
)

// in returns the engine's key of the view's k; a nil k stays nil.
func (v *prefixView) in(k []byte) []byte {
	if k == nil {
		return nil
	}
	return append(bytes.Clone(v.p), k...)
}

// lower and upper are the engine's bounds of the view's range bounds.
func (v *prefixView) lower(k []byte) []byte {
	if k == nil {
		return bytes.Clone(v.p)
	}
	return v.in(k)
}

func (v *prefixView) upper(k []byte) []byte {
	if k == nil {
		end := bytes.Clone(v.p)
		end[len(end)-1]++ // printable: never 0xff
		return end
	}
	return v.in(k)
}

func (v *prefixView) Get(k []byte) ([]byte, error) { return v.e.Get(v.in(k)) }
func (v *prefixView) Put(k, val []byte) error      { return v.e.Put(v.in(k), val) }
func (v *prefixView) Delete(k []byte) error        { return v.e.Delete(v.in(k)) }
func (v *prefixView) Close() error                 { return v.e.Close() }

// DeleteRange and Compact keep an inverted range inverted, so that the
// engine refuses it.
func (v *prefixView) DeleteRange(start, end []byte) error {
	return v.e.DeleteRange(v.lower(start), v.upper(end))
}

func (v *prefixView) Compact(start, end []byte) error {
	return v.e.Compact(v.lower(start), v.upper(end))
}

func (v *prefixView) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	return newViewIter(v.e, v, o)
}

func (v *prefixView) NewBatch() engine.Batch { return &viewBatch{Batch: v.e.NewBatch(), v: v} }

// Limits are the engine's, less the prefix: within the view keys are
// ordered as everywhere, and batches atomic.
func (v *prefixView) Limits() engine.Limits {
	l := engine.LimitsOf(v.e)
	l.MinKeySize = max(0, l.MinKeySize-len(v.p))
	if l.MaxKeySize > 0 {
		l.MaxKeySize -= len(v.p)
	}
	l.OrderedPrefix, l.AtomicPrefix = 0, 0
	return l
}

// NewSnapshot is the engine layer's fallback over the view's iterators:
// the engine's own fallback reads every key, across prefixes.
func (v *prefixView) NewSnapshot() (engine.Snapshot, error) {
	return engine.NewSnapshot(struct{ engine.Engine }{v})
}

func (v *prefixView) EstimateSize(start, end []byte) (int64, error) {
	return engine.EstimateSize(v.e, v.lower(start), v.upper(end))
}

func (v *prefixView) Metrics() (engine.Metrics, error) { return engine.ReadMetrics(v.e) }

// viewBatch is a batch of the view: its keys get the prefix, and Size
// counts the view's bytes.
type viewBatch struct {
	engine.Batch
	v *prefixView
}

func (b *viewBatch) Put(k, val []byte) { b.Batch.Put(b.v.in(k), val) }
func (b *viewBatch) Delete(k []byte)   { b.Batch.Delete(b.v.in(k)) }
func (b *viewBatch) Size() int         { return b.Batch.Size() - b.Batch.Len()*len(b.v.p) }

func (b *viewBatch) CommitContext(ctx context.Context) error {
	return engine.CommitContext(ctx, b.Batch)
}

// viewIter is an iterator of the view: keys lose the prefix.
type viewIter struct {
	engine.Iterator
	r engine.Reader
	v *prefixView
}

var _ engine.BoundsSetter = (*viewIter)(nil)

func newViewIter(r engine.Reader, v *prefixView, o engine.IterOptions) (engine.Iterator, error) {
	it, err := r.NewIterator(engine.IterOptions{LowerBound: v.lower(o.LowerBound), UpperBound: v.upper(o.UpperBound)})
	if err != nil {
		return nil, err
	}
	return &viewIter{Iterator: it, r: r, v: v}, nil
}

func (i *viewIter) Seek(k []byte) bool { return i.Iterator.Seek(i.v.in(k)) }

func (i *viewIter) Key() []byte {
	if k := i.Iterator.Key(); k != nil {
		return k[len(i.v.p):]
	}
	return nil
}

func (i *viewIter) SetBounds(o engine.IterOptions) error {
	it, err := engine.SetBounds(i.r, i.Iterator, engine.IterOptions{LowerBound: i.v.lower(o.LowerBound), UpperBound: i.v.upper(o.UpperBound)})
	if it != nil {
		i.Iterator = it
	}
	return err
}

// testWithinPrefix checks, on the raw engine ordered within prefixes of
// n bytes, what the view hides: keys shorter than the prefix refused,
// ranges across prefixes refused with engine.ErrUnordered, and each
// prefix's keys in order, apart from its neighbours', under the bounds a
// time-series query gives (a prefix's keys up to the next prefix).
func testWithinPrefix(t *testing.T, db engine.Engine, n int) {
	key := func(p byte, rest string) []byte { return append(bytes.Repeat([]byte{p}, n), rest...) }
	if err := db.Put(key('a', "")[:n-1], []byte("v")); !errors.Is(err, engine.ErrKeyNotSupported) {
		t.Errorf("Put of a key of %d bytes, shorter than the prefix = %v, want engine.ErrKeyNotSupported", n-1, err)
	}
	var want []kv
	for _, p := range []byte{'a', 'b', 'c'} {
		for _, rest := range []string{"", "\x00", "\x01", "\x7f", "\x80", "\xff", "\xff\xff"} {
			k := key(p, rest)
			put(t, db, string(k), "v"+string(k))
			if p == 'b' {
				want = append(want, kv{string(k), "v" + string(k)})
			}
		}
	}
	// [b..., the prefix after b's): every key of prefix b, in order.
	bLow := key('b', "")
	bNext := append(bytes.Repeat([]byte{'b'}, n-1), 'c')
	wantScan(t, db, bLow, bNext, want)
	wantScan(t, db, key('b', "\x01"), key('b', "\xff"), want[2:5])
	for _, r := range []struct {
		name       string
		start, end []byte
	}{
		{"unbounded", nil, nil},
		{"no upper bound", bLow, nil},
		{"no lower bound", nil, bNext},
		{"two prefixes", key('a', ""), key('c', "")},
		{"lower bound shorter than the prefix", bLow[:n-1], bNext},
		{"beyond the next prefix", bLow, key('c', "\x00")},
	} {
		_, err := db.NewIterator(engine.IterOptions{LowerBound: r.start, UpperBound: r.end})
		if !errors.Is(err, engine.ErrUnordered) {
			t.Errorf("NewIterator over %s = %v, want engine.ErrUnordered", r.name, err)
		}
		if r.start != nil && r.end != nil && bytes.Compare(r.start, r.end) < 0 {
			if err := db.DeleteRange(r.start, r.end); !errors.Is(err, engine.ErrUnordered) {
				t.Errorf("DeleteRange over %s = %v, want engine.ErrUnordered", r.name, err)
			}
		}
	}
	if _, err := engine.NewSnapshot(db); err == nil || !errors.Is(err, engine.ErrUnordered) {
		t.Errorf("NewSnapshot (the fallback reads every key) = %v, want engine.ErrUnordered", err)
	}
	// DeleteRange within one prefix leaves its neighbours alone.
	deleteRange(t, db, string(bLow), string(bNext))
	wantScan(t, db, bLow, bNext, nil)
	wantGet(t, db, string(key('a', "\xff")), "v"+string(key('a', "\xff")))
	wantGet(t, db, string(key('c', "")), "v"+string(key('c', "")))
}
