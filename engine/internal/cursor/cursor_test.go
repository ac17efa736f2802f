package cursor

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
)

// fake is a Source over sorted entries that fills as cursor.h describes,
// with a small entry limit (unless the caller gives one) so that walks
// cross many fills.
type fake struct {
	keys, values [][]byte
	pos          int // the entry the next fill starts with; -1 or len(keys) when off the end
	forward      bool
	limit        int
	failAt       int // index whose reading fails, or -1
	fills        int
	released     int
}

func (f *fake) Bound(engine.IterOptions) error { return nil }
func (f *fake) Release()                       { f.released++ }

func (f *fake) find(k []byte) int {
	for i, key := range f.keys {
		if bytes.Compare(key, k) >= 0 {
			return i
		}
	}
	return len(f.keys)
}

func (f *fake) Fill(op Op, key, buf []byte, limit int) (int, int, bool, int, error) {
	f.fills++
	if limit == 0 {
		limit = f.limit
	}
	switch op {
	case First:
		f.pos, f.forward = 0, true
	case Last:
		f.pos, f.forward = len(f.keys)-1, false
	case Seek:
		f.pos, f.forward = f.find(key), true
	case After:
		f.pos, f.forward = f.find(key), true
		if f.pos < len(f.keys) && bytes.Equal(f.keys[f.pos], key) {
			f.pos++
		}
	case Before:
		f.pos, f.forward = f.find(key)-1, false
	}
	used, n := 0, 0
	for f.pos >= 0 && f.pos < len(f.keys) && n < limit {
		if f.pos == f.failAt {
			return used, n, true, 0, errors.New("broken")
		}
		k, v := f.keys[f.pos], f.values[f.pos]
		size := headerSize + len(k) + len(v)
		if used+size > len(buf) {
			if used == 0 {
				return 0, 0, false, size, nil
			}
			return used, n, false, 0, nil
		}
		binary.NativeEndian.PutUint32(buf[used:], uint32(len(k)))
		binary.NativeEndian.PutUint32(buf[used+4:], uint32(len(v)))
		copy(buf[used+headerSize:], k)
		copy(buf[used+headerSize+len(k):], v)
		used += size
		n++
		if f.forward {
			f.pos++
		} else {
			f.pos--
		}
	}
	return used, n, f.pos < 0 || f.pos >= len(f.keys), 0, nil
}

// newFake returns n entries, every 17th larger than a buffer if big.
func newFake(n int, big bool) *fake {
	f := &fake{limit: 5, failAt: -1}
	for i := range n {
		f.keys = append(f.keys, fmt.Appendf(nil, "k%04d", i))
		v := fmt.Appendf(nil, "v%d", i)
		if big && i%17 == 0 {
			v = bytes.Repeat(v, bufSize/len(v)+1) // larger than a buffer
		}
		f.values = append(f.values, v)
	}
	return f
}

func at(t *testing.T, it *Iter, f *fake, i int, what string) {
	t.Helper()
	if i < 0 || i >= len(f.keys) {
		if it.Valid() {
			t.Fatalf("%s: at %q, want exhausted", what, it.Key())
		}
		return
	}
	if !it.Valid() || !bytes.Equal(it.Key(), f.keys[i]) || !bytes.Equal(it.Value(), f.values[i]) {
		t.Fatalf("%s: valid %v at %q, want %q", what, it.Valid(), it.Key(), f.keys[i])
	}
}

// TestWalk compares random walks with the entries' positions.
func TestWalk(t *testing.T) {
	f := newFake(200, true)
	it := New(f, engine.IterOptions{})
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var i int
		switch rng.IntN(3) {
		case 0:
			it.First()
			i = 0
		case 1:
			it.Last()
			i = len(f.keys) - 1
		default:
			i = rng.IntN(len(f.keys))
			it.Seek(f.keys[i])
		}
		at(t, it, f, i, "position")
		for range rng.IntN(40) {
			if rng.IntN(3) == 0 {
				it.Prev()
				i--
			} else {
				it.Next()
				i++
			}
			at(t, it, f, i, fmt.Sprintf("step to %d", i))
			if i < 0 || i >= len(f.keys) {
				break
			}
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestExhausted checks that an iterator that ran out stays out and that
// one over an empty range asks its Source nothing.
func TestExhausted(t *testing.T) {
	f := newFake(3, false)
	it := New(f, engine.IterOptions{})
	it.Last()
	if it.Next() || it.Valid() || it.Prev() || it.Key() != nil || it.Value() != nil {
		t.Fatal("an exhausted iterator moved")
	}
	f.fills = 0
	none := New(f, engine.IterOptions{LowerBound: []byte("k2"), UpperBound: []byte("k1")})
	if none.First() || none.Last() || none.Seek([]byte("k")) || none.Err() != nil || f.fills != 0 {
		t.Fatalf("an iterator over an empty range found an entry or filled (%d fills)", f.fills)
	}
}

// TestSetBoundsAndClose checks that SetBounds leaves the iterator
// unpositioned, hands over the error met and forgets it, and that Close
// releases the Source once.
func TestSetBoundsAndClose(t *testing.T) {
	f := newFake(20, false)
	f.failAt = 7
	it := New(f, engine.IterOptions{})
	for ok := it.First(); ok; ok = it.Next() {
	}
	f.failAt = -1
	if err := it.SetBounds(engine.IterOptions{UpperBound: []byte("k0003")}); err == nil {
		t.Fatal("SetBounds forgot the error met before")
	}
	if it.Valid() || it.Err() != nil {
		t.Fatalf("after SetBounds: valid %v, error %v; want unpositioned, no error", it.Valid(), it.Err())
	}
	if !it.First() || string(it.Key()) != "k0000" {
		t.Fatalf("First after SetBounds: at %q, %v", it.Key(), it.Err())
	}
	if err := it.SetBounds(engine.IterOptions{LowerBound: []byte("b"), UpperBound: []byte("a")}); !errors.Is(err, engine.ErrInvalidRange) {
		t.Fatalf("SetBounds to inverted bounds = %v, want engine.ErrInvalidRange", err)
	}
	if !it.First() || string(it.Key()) != "k0000" {
		t.Fatalf("First after refused SetBounds: at %q, %v; want the bounds kept", it.Key(), it.Err())
	}
	if err := it.SetBounds(engine.IterOptions{LowerBound: []byte("b"), UpperBound: []byte("b")}); err != nil || it.First() {
		t.Fatalf("SetBounds to an empty range: %v, or First found %q", err, it.Key())
	}
	if err := it.Close(); err != nil || f.released != 1 {
		t.Fatalf("Close = %v, released %d times; want nil, once", err, f.released)
	}
	if it.Close() != nil || !errors.Is(it.SetBounds(engine.IterOptions{}), engine.ErrClosed) ||
		!errors.Is(it.Err(), engine.ErrClosed) || f.released != 1 {
		t.Fatal("a closed iterator's second Close was not nil, it did not report engine.ErrClosed, or it released again")
	}
}

// TestError checks that the entries read before an error come first and
// the error after them, and that it sticks.
func TestError(t *testing.T) {
	f := newFake(20, true)
	f.failAt = 7
	it := New(f, engine.IterOptions{})
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		at(t, it, f, n, "before the error")
		n++
	}
	if n != 7 || it.Err() == nil {
		t.Fatalf("read %d entries, error %v; want 7 and the error", n, it.Err())
	}
	if it.First() || it.Seek(f.keys[0]) {
		t.Fatal("moved after an error")
	}
	if err := it.Close(); err == nil {
		t.Fatal("Close forgot the error")
	}
}

// TestNoAllocation checks that walking a fill allocates nothing.
func TestNoAllocation(t *testing.T) {
	f := newFake(1000, false)
	f.limit = 1000
	it := New(f, engine.IterOptions{})
	it.Seek(f.keys[1])
	if n := testing.AllocsPerRun(100, func() {
		it.Next()
		_, _ = it.Key(), it.Value()
	}); n != 0 {
		t.Errorf("Next allocates %v times", n)
	}
}

// fixed is a Source whose every fill is the same entries.
type fixed []byte

func (fixed) Bound(engine.IterOptions) error { return nil }
func (fixed) Release()                       {}

func (f fixed) Fill(_ Op, _, buf []byte, _ int) (int, int, bool, int, error) {
	n := copy(buf, f)
	return n, n / fixedEntry, false, 0, nil
}

// fixedEntry is the size of each of fixed's entries.
const fixedEntry = headerSize + 24 + 10

// BenchmarkWalk measures moving through fills in Go, the cost the bulk
// iterator adds per entry on top of the C side's copy: an op is one
// entry, shaped like the time-series workload's (24-byte key, 10-byte
// value).
func BenchmarkWalk(b *testing.B) {
	var entries []byte
	for i := range 700 { // as many as a buffer holds
		entries = binary.NativeEndian.AppendUint32(entries, 24)
		entries = binary.NativeEndian.AppendUint32(entries, 10)
		entries = fmt.Appendf(entries, "%024d%010d", i, i)
	}
	it := New(fixed(entries), engine.IterOptions{})
	it.First()
	n := 0
	for b.Loop() {
		it.Next()
		n += len(it.Key()) + len(it.Value())
	}
	if n == 0 {
		b.Fatal("walked nothing")
	}
}

// appendAll appends runs of at most max, the first with first set, until
// none may follow, and returns the indexes in f of the entries appended.
func appendAll(t *testing.T, it *Iter, f *fake, max int, first bool) []int {
	t.Helper()
	var got []int
	var dst []byte
	for more := true; more; first = false {
		var n int
		dst, n, more = it.AppendEntries(dst[:0], max, first)
		if n > max || (more && n == 0) {
			t.Fatalf("AppendEntries(max %d) appended %d entries, more %v", max, n, more)
		}
		for b := dst; len(b) > 0; n-- {
			var k, v []byte
			k, v, b = engine.NextEntry(b)
			i := f.find(k)
			if i == len(f.keys) || !bytes.Equal(f.keys[i], k) || !bytes.Equal(f.values[i], v) {
				t.Fatalf("AppendEntries appended %q, not an entry", k)
			}
			got = append(got, i)
		}
		if n != 0 {
			t.Fatalf("AppendEntries(max %d) miscounted by %d", max, n)
		}
	}
	return got
}

// from returns the indexes i, i+1, ... below n.
func from(i, n int) []int {
	var s []int
	for ; i < n; i++ {
		s = append(s, i)
	}
	return s
}

// TestAppendEntries checks runs of every length from First, from a
// position within a forward fill and from one within a backward fill, with
// entries larger than a buffer among them, and that an iterator that
// appended moves again once positioned.
func TestAppendEntries(t *testing.T) {
	f := newFake(300, true)
	for _, max := range []int{1, 3, 64, 1000} {
		it := New(f, engine.IterOptions{})
		if got := appendAll(t, it, f, max, true); !slices.Equal(got, from(0, 300)) {
			t.Fatalf("max %d from First: %v", max, got)
		}
		if it.Valid() || it.Next() {
			t.Fatalf("max %d: the iterator rests on %q after the last run", max, it.Key())
		}
		it.Seek(f.keys[100])
		it.Next()
		if got := appendAll(t, it, f, max, false); !slices.Equal(got, from(101, 300)) {
			t.Fatalf("max %d after Seek and Next: %v", max, got)
		}
		it.Seek(f.keys[200])
		it.Prev()
		if got := appendAll(t, it, f, max, false); !slices.Equal(got, from(199, 300)) {
			t.Fatalf("max %d after a Prev: %v", max, got)
		}
		at(t, it, f, -1, "after the runs")
		if !it.Seek(f.keys[5]) {
			t.Fatal("Seek after AppendEntries found nothing")
		}
		at(t, it, f, 5, "Seek after AppendEntries")
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAppendEntriesError checks that the entries before an error are
// appended and the error reported after them.
func TestAppendEntriesError(t *testing.T) {
	f := newFake(20, false)
	f.failAt = 7
	it := New(f, engine.IterOptions{})
	if got := appendAll(t, it, f, 3, true); !slices.Equal(got, from(0, 7)) || it.Err() == nil {
		t.Fatalf("appended %v, error %v; want the 7 entries before the error, and it", got, it.Err())
	}
}

// TestAppendEntriesDirect checks that the Source fills the caller's
// buffer, one fill per run when it has room, allocating nothing.
func TestAppendEntriesDirect(t *testing.T) {
	f := newFake(1000, false)
	it := New(f, engine.IterOptions{})
	dst := make([]byte, 0, 64<<10)
	if n := testing.AllocsPerRun(20, func() {
		f.fills = 0
		var n int
		dst, n, _ = it.AppendEntries(dst[:0], 900, true)
		if n != 900 || f.fills != 1 || it.mem != nil {
			t.Fatalf("appended %d entries in %d fills (through its own buffer: %v), want 900 in 1 straight into dst",
				n, f.fills, it.mem != nil)
		}
	}); n != 0 {
		t.Errorf("AppendEntries allocates %v times", n)
	}
}
