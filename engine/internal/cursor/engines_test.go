package cursor_test

// The bulk iterators of the C backends, which this package walks in Go,
// checked and measured through the engine interface on data that spans
// many fills: the shared acceptance suite uses few keys, so it rarely
// crosses from one fill to the next. Each backend fills from C of its own
// (levelcore's library.h for the LevelDB family, lmdb's binding.c).

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/hyperleveldb"
	_ "github.com/tsbench/storage/engine/leveldb"
	_ "github.com/tsbench/storage/engine/lmdb"
	_ "github.com/tsbench/storage/engine/rocksdb"
)

// engines are the backends whose iterators package cursor walks.
var engines = []string{"hyperleveldb", "leveldb", "lmdb", "rocksdb"}

// TestEngines walks data spanning many iterator fills in every engine.
func TestEngines(t *testing.T) {
	for _, name := range engines {
		t.Run(name, func(t *testing.T) { run(t, name) })
	}
}

// BenchmarkEngines measures one iterator step of every engine; allocs/op
// must be 0.
func BenchmarkEngines(b *testing.B) {
	for _, name := range engines {
		b.Run(name, func(b *testing.B) { benchmark(b, name) })
	}
}

// entries is how many entries run writes: enough for several fills of
// small entries between the large ones.
const entries = 3000

// run writes entries of mixed sizes, some larger than a whole fill, and
// compares scans in both directions, bounded scans, scans of one iterator
// given new bounds (which must keep its view), and random walks that
// change direction at and between fill boundaries with the data written.
func run(t *testing.T, name string) {
	db, err := engine.Open(name, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}()
	keys, values := data()
	b := db.NewBatch()
	for i := range keys {
		b.Put(keys[i], values[i])
		if b.Len() == 100 || i == len(keys)-1 {
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	c := checker{t: t, db: db, keys: keys, values: values}
	c.scan(nil, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		lo, hi := rng.IntN(len(keys)), rng.IntN(len(keys)+1)
		if hi < lo {
			lo, hi = hi, lo // inverted bounds are refused
		}
		c.scan(keys[lo], bound(keys, hi))
	}
	for range 50 {
		c.walk(rng)
	}
	// RocksDB keeps to the upper bound an iterator was made with, and the
	// cursor to one given later.
	c.reuse(rng, engine.IterOptions{})
	c.reuse(rng, engine.IterOptions{UpperBound: keys[len(keys)/2]})
	c.keepsView()
}

// keepsView checks that an iterator given new bounds keeps its view: a
// key written after it was made stays unseen. It writes that key last.
func (c *checker) keepsView() {
	c.t.Helper()
	it, err := c.db.NewIterator(engine.IterOptions{LowerBound: c.keys[0], UpperBound: c.keys[1]})
	if err != nil {
		c.t.Fatal(err)
	}
	defer it.Close()
	added := append(bytes.Clone(c.keys[5]), 'x')
	if err := c.db.Put(added, []byte("new")); err != nil {
		c.t.Fatal(err)
	}
	if it, err = engine.SetBounds(c.db, it, engine.IterOptions{LowerBound: c.keys[5], UpperBound: c.keys[6]}); err != nil {
		c.t.Fatal(err)
	}
	c.check(it, c.keys[5], c.keys[6])
}

// data returns sorted keys and their values: mostly 10 bytes, every 13th
// 1 KiB and every 97th 40 KiB, more than one fill holds.
func data() (keys, values [][]byte) {
	for i := range entries {
		n := 10
		switch {
		case i%97 == 0:
			n = 40 << 10
		case i%13 == 0:
			n = 1 << 10
		}
		keys = append(keys, fmt.Appendf(nil, "key%06d", i))
		values = append(values, bytes.Repeat([]byte{byte(i)}, n))
	}
	return keys, values
}

// bound returns keys[i], or nil (unbounded) past the end.
func bound(keys [][]byte, i int) []byte {
	if i == len(keys) {
		return nil
	}
	return keys[i]
}

type checker struct {
	t            *testing.T
	db           engine.Engine
	keys, values [][]byte
}

// scan reads [lo, hi) forward and backward and compares every entry.
func (c *checker) scan(lo, hi []byte) {
	c.t.Helper()
	it, err := c.db.NewIterator(engine.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		c.t.Fatal(err)
	}
	defer it.Close()
	c.check(it, lo, hi)
}

// reuse scans random ranges with one iterator made with opts, given new
// bounds each time (engine.SetBounds): bounds longer than a key, which
// cursors keep apart from short ones, and unbounded ends come and go.
func (c *checker) reuse(rng *rand.Rand, opts engine.IterOptions) {
	c.t.Helper()
	it, err := c.db.NewIterator(opts)
	if err != nil {
		c.t.Fatal(err)
	}
	defer func() { it.Close() }()
	random := func() []byte {
		k := c.keys[rng.IntN(len(c.keys))]
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return append(bytes.Clone(k), make([]byte, 70)...) // just after k
		}
		return k
	}
	for range 40 {
		lo, hi := random(), random()
		if hi != nil && bytes.Compare(lo, hi) > 0 {
			lo, hi = hi, lo // inverted bounds are refused
		}
		if it, err = engine.SetBounds(c.db, it, engine.IterOptions{LowerBound: lo, UpperBound: hi}); err != nil {
			c.t.Fatalf("SetBounds([%q, %q)): %v", lo, hi, err)
		}
		c.check(it, lo, hi)
	}
}

// check reads [lo, hi) with it, bounded so, forward and backward and
// compares every entry.
func (c *checker) check(it engine.Iterator, lo, hi []byte) {
	c.t.Helper()
	from, to := c.index(lo), c.index(hi)
	if hi == nil {
		to = len(c.keys)
	}
	to = max(from, to)
	i := from
	for ok := it.First(); ok; ok = it.Next() {
		if i == to {
			c.t.Fatalf("forward scan of [%q, %q) went on to %q", lo, hi, it.Key())
		}
		c.at(it, i, "forward scan of [%q, %q)", lo, hi)
		i++
	}
	if i < to {
		c.t.Fatalf("forward scan of [%q, %q) ended before %q: %v", lo, hi, c.keys[i], it.Err())
	}
	i = to - 1
	for ok := it.Last(); ok; ok = it.Prev() {
		if i < from {
			c.t.Fatalf("backward scan of [%q, %q) went on to %q", lo, hi, it.Key())
		}
		c.at(it, i, "backward scan of [%q, %q)", lo, hi)
		i--
	}
	if i >= from {
		c.t.Fatalf("backward scan of [%q, %q) ended after %q: %v", lo, hi, c.keys[i], it.Err())
	}
}

// walk seeks to a random key and takes runs of Next and Prev of random
// lengths, long enough to cross fills, over the whole key space.
func (c *checker) walk(rng *rand.Rand) {
	c.t.Helper()
	it, err := c.db.NewIterator(engine.IterOptions{})
	if err != nil {
		c.t.Fatal(err)
	}
	defer it.Close()
	i := rng.IntN(len(c.keys))
	if !it.Seek(c.keys[i]) {
		c.t.Fatalf("Seek(%q) found nothing: %v", c.keys[i], it.Err())
	}
	c.at(it, i, "Seek")
	for range 8 {
		n := rng.IntN(300)
		forward := rng.IntN(2) == 0
		for range n {
			var ok bool
			if forward {
				ok, i = it.Next(), i+1
			} else {
				ok, i = it.Prev(), i-1
			}
			if i < 0 || i == len(c.keys) {
				if ok {
					c.t.Fatalf("moved past the end to %q", it.Key())
				}
				return
			}
			if !ok {
				c.t.Fatalf("stopped before %q: %v", c.keys[i], it.Err())
			}
			c.at(it, i, "walk")
		}
	}
}

// at requires it to rest on entry i.
func (c *checker) at(it engine.Iterator, i int, format string, args ...any) {
	c.t.Helper()
	if i < 0 || i >= len(c.keys) {
		c.t.Fatalf(format+": got %q past the data", append(args, it.Key())...)
	}
	if !bytes.Equal(it.Key(), c.keys[i]) || !bytes.Equal(it.Value(), c.values[i]) {
		c.t.Fatalf(format+": at %q (value %d bytes), want %q (%d bytes)",
			append(args, it.Key(), len(it.Value()), c.keys[i], len(c.values[i]))...)
	}
}

// index returns the position of the first key >= k.
func (c *checker) index(k []byte) int {
	i, _ := slices.BinarySearchFunc(c.keys, k, bytes.Compare)
	return i
}

// benchmark measures one iterator step over entries shaped like the
// time-series workload's (24-byte keys, 10-byte values); an op is one
// entry, so allocs/op is the allocations per entry, which must be 0. A
// new iterator is opened each time the store is read to its end, as a
// scan per series does.
func benchmark(b *testing.B, name string) {
	db, err := engine.Open(name, b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const n = 100_000
	batch := db.NewBatch()
	key := make([]byte, 24)
	value := bytes.Repeat([]byte{0x28}, 10)
	for i := range n {
		key[16], key[17], key[18], key[19] = byte(i>>24), byte(i>>16), byte(i>>8), byte(i)
		batch.Put(key, value)
		if batch.Len() == 1000 {
			if err := batch.Commit(); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := batch.Close(); err != nil {
		b.Fatal(err)
	}
	var it engine.Iterator
	ok := false
	bytesRead := 0
	b.ReportAllocs()
	for b.Loop() {
		if !ok {
			if it != nil {
				if err := it.Close(); err != nil {
					b.Fatal(err)
				}
			}
			if it, err = db.NewIterator(engine.IterOptions{}); err != nil {
				b.Fatal(err)
			}
			ok = it.First()
		} else {
			ok = it.Next()
		}
		bytesRead += len(it.Key()) + len(it.Value())
	}
	if it != nil {
		if err := it.Close(); err != nil {
			b.Fatal(err)
		}
	}
	if bytesRead == 0 {
		b.Fatal("read nothing")
	}
}
