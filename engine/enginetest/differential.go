package enginetest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

const (
	// diffSeed fixes the operation sequence, so a failure reproduces.
	diffSeed = 20140601
	diffOps  = 3000
)

func testDifferential(t *testing.T, open Factory, dir string) {
	runDifferential(t, func() (engine.Engine, error) { return open(t, dir) })
}

// differ applies the same operations to the engine under test and to the
// in-memory reference, and compares every result.
type differ struct {
	t       testing.TB
	rng     *rand.Rand
	keys    [][]byte
	db, ref engine.Engine
	op      int
	what    string // the current operation, for failure messages
}

// runDifferential takes testing.TB, and reports failures only through
// Fatalf, so that its own test can check that it catches a faulty engine.
func runDifferential(t testing.TB, open func() (engine.Engine, error)) {
	t.Helper()
	db, err := open()
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	ref := memory.New()
	d := &differ{t: t, rng: rand.New(rand.NewPCG(diffSeed, diffSeed)), db: db, ref: ref}
	defer func() {
		if d.db != nil {
			d.db.Close()
		}
		ref.Close()
	}()
	d.keys = diffKeys(d.rng)
	for d.op = 0; d.op < diffOps; d.op++ {
		if d.op == diffOps/2 {
			d.what = "close and reopen"
			if err := d.db.Close(); err != nil {
				d.fail("Close: %v", err)
			}
			if d.db, err = open(); err != nil {
				d.fail("reopen: %v", err)
			}
			d.compareScan(nil, nil, false)
		}
		d.step()
	}
	d.what = "final scan"
	d.compareScan(nil, nil, false)
	d.compareScan(nil, nil, true)
}

// diffKeys returns a small key space, so that operations collide: binary
// edge cases plus random keys of 1 to 12 bytes drawn mostly from a few
// byte values.
func diffKeys(rng *rand.Rand) [][]byte {
	var keys [][]byte
	for _, k := range binaryKeys {
		keys = append(keys, []byte(k))
	}
	alphabet := []byte{0x00, 0x01, 0x7f, 0x80, 0xff, 'a', 'b'}
	for len(keys) < 64 {
		k := make([]byte, 1+rng.IntN(12))
		for i := range k {
			if rng.IntN(4) == 0 {
				k[i] = byte(rng.Uint32())
			} else {
				k[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		keys = append(keys, k)
	}
	return keys
}

func (d *differ) fail(format string, args ...any) {
	d.t.Helper()
	d.t.Fatalf("differential (seed %d) op %d, %s: %s", diffSeed, d.op, d.what, fmt.Sprintf(format, args...))
}

func (d *differ) key() []byte { return d.keys[d.rng.IntN(len(d.keys))] }

// bound returns nil (unbounded) a quarter of the time, else a key from the
// key space or, now and then, a key outside it.
func (d *differ) bound() []byte {
	switch d.rng.IntN(8) {
	case 0, 1:
		return nil
	case 2:
		return append(bytes.Clone(d.key()), byte(d.rng.Uint32()))
	default:
		return d.key()
	}
}

func (d *differ) value() []byte {
	n := d.rng.IntN(24)
	switch d.rng.IntN(20) {
	case 0:
		n = 0
	case 1:
		n = 2000 + d.rng.IntN(2000)
	}
	v := make([]byte, n)
	for i := range v {
		v[i] = byte(d.rng.Uint32())
	}
	return v
}

// step performs one random operation on both engines.
func (d *differ) step() {
	switch r := d.rng.IntN(100); {
	case r < 30:
		k, v := d.key(), d.value()
		d.what = fmt.Sprintf("Put(%q, %d bytes)", k, len(v))
		d.both(d.db.Put(k, v), d.ref.Put(k, v))
	case r < 40:
		k := d.key()
		d.what = fmt.Sprintf("Delete(%q)", k)
		d.both(d.db.Delete(k), d.ref.Delete(k))
	case r < 44:
		d.deleteRange(d.key(), d.key())
	case r < 54:
		d.batch()
	case r < 72:
		k := d.key()
		d.what = fmt.Sprintf("Get(%q)", k)
		d.compareGet(k)
	case r < 80:
		lower, upper := d.bounds("forward scan", d.newIterator)
		d.what = fmt.Sprintf("forward scan [%s, %s)", show(lower), show(upper))
		d.compareScan(lower, upper, false)
	case r < 88:
		lower, upper := d.bounds("reverse scan", d.newIterator)
		d.what = fmt.Sprintf("reverse scan [%s, %s)", show(lower), show(upper))
		d.compareScan(lower, upper, true)
	case r < 97:
		d.walk()
	case r < 99:
		d.snapshot()
	default:
		start, end := d.bounds("Compact", func(o engine.IterOptions) error { return d.db.Compact(o.LowerBound, o.UpperBound) })
		d.what = fmt.Sprintf("Compact(%s, %s)", show(start), show(end))
		d.both(d.db.Compact(start, end), d.ref.Compact(start, end))
	}
}

// inverted reports whether [start, end) is written backwards: start
// above a non-nil end.
func inverted(start, end []byte) bool { return end != nil && bytes.Compare(start, end) > 0 }

// bounds draws the bounds of a range. Drawn inverted, they must be refused
// with engine.ErrInvalidRange by refuse, the call on the engine under test
// alone (the reference is not asked), and bounds returns them swapped for
// the operation to go on with.
func (d *differ) bounds(what string, refuse func(engine.IterOptions) error) (lower, upper []byte) {
	d.t.Helper()
	lower, upper = d.bound(), d.bound()
	if !inverted(lower, upper) {
		return lower, upper
	}
	d.what = fmt.Sprintf("%s over inverted bounds [%s, %s)", what, show(lower), show(upper))
	if err := refuse(engine.IterOptions{LowerBound: lower, UpperBound: upper}); !errors.Is(err, engine.ErrInvalidRange) {
		d.fail("engine: %v, want an error wrapping engine.ErrInvalidRange", err)
	}
	return upper, lower
}

// newIterator is a refusal for bounds: the engine's NewIterator.
func (d *differ) newIterator(o engine.IterOptions) error {
	it, err := d.db.NewIterator(o)
	if err == nil {
		it.Close()
	}
	return err
}

// deleteRange applies DeleteRange to both engines; an inverted range must
// be refused by the engine, and is then applied swapped.
func (d *differ) deleteRange(start, end []byte) {
	d.t.Helper()
	if inverted(start, end) {
		d.what = fmt.Sprintf("DeleteRange(%q, %q), inverted", start, end)
		if err := d.db.DeleteRange(start, end); !errors.Is(err, engine.ErrInvalidRange) {
			d.fail("engine: %v, want an error wrapping engine.ErrInvalidRange", err)
		}
		start, end = end, start
	}
	d.what = fmt.Sprintf("DeleteRange(%q, %q)", start, end)
	d.both(d.db.DeleteRange(start, end), d.ref.DeleteRange(start, end))
}

func (d *differ) both(err, refErr error) {
	d.t.Helper()
	if err != nil || refErr != nil {
		d.fail("engine: %v, reference: %v", err, refErr)
	}
}

// batch commits the same mix of puts and deletes, repeated keys included,
// to both engines.
func (d *differ) batch() {
	b, rb := d.db.NewBatch(), d.ref.NewBatch()
	defer b.Close()
	defer rb.Close()
	n := 1 + d.rng.IntN(8)
	d.what = fmt.Sprintf("batch of %d:", n)
	for range n {
		k := d.key()
		if d.rng.IntN(3) == 0 {
			d.what += fmt.Sprintf(" Delete(%q)", k)
			b.Delete(k)
			rb.Delete(k)
		} else {
			v := d.value()
			d.what += fmt.Sprintf(" Put(%q)", k)
			b.Put(k, v)
			rb.Put(k, v)
		}
	}
	if b.Len() != n {
		d.fail("Len = %d, want %d", b.Len(), n)
	}
	d.both(b.Commit(), rb.Commit())
}

func (d *differ) compareGet(k []byte) { d.compareGetOn(d.db, d.ref, k) }

func (d *differ) compareGetOn(db, ref engine.Reader, k []byte) {
	d.t.Helper()
	v, err := db.Get(k)
	rv, rerr := ref.Get(k)
	if rerr != nil && !errors.Is(rerr, engine.ErrNotFound) {
		d.fail("reference Get: %v", rerr)
	}
	switch {
	case errors.Is(rerr, engine.ErrNotFound) && !errors.Is(err, engine.ErrNotFound):
		d.fail("engine returns %q, %v; reference has no such key", clip(v), err)
	case rerr == nil && (err != nil || !bytes.Equal(v, rv)):
		d.fail("engine returns %q, %v; reference %q", clip(v), err, clip(rv))
	}
}

func (d *differ) iters(lower, upper []byte) (engine.Iterator, engine.Iterator) {
	return d.itersOn(d.db, d.ref, lower, upper)
}

func (d *differ) itersOn(db, rdb engine.Reader, lower, upper []byte) (engine.Iterator, engine.Iterator) {
	d.t.Helper()
	opts := engine.IterOptions{LowerBound: lower, UpperBound: upper}
	it, err := db.NewIterator(opts)
	if err != nil {
		d.fail("NewIterator: %v", err)
	}
	ref, err := rdb.NewIterator(opts)
	if err != nil {
		it.Close()
		d.fail("reference NewIterator: %v", err)
	}
	return it, ref
}

func (d *differ) compareScan(lower, upper []byte, reverse bool) {
	d.t.Helper()
	it, ref := d.iters(lower, upper)
	defer it.Close()
	defer ref.Close()
	d.compareIters(it, ref, reverse)
}

// compareIters scans both iterators to the end and compares them entry by
// entry.
func (d *differ) compareIters(it, ref engine.Iterator, reverse bool) {
	d.t.Helper()
	start, step := it.First, it.Next
	rstart, rstep := ref.First, ref.Next
	if reverse {
		start, step, rstart, rstep = it.Last, it.Prev, ref.Last, ref.Prev
	}
	ok, rok := start(), rstart()
	for i := 0; ; i++ {
		d.compareAt(fmt.Sprintf("entry %d", i), it, ref, ok, rok)
		if !ok {
			break
		}
		ok, rok = step(), rstep()
	}
	if err := it.Err(); err != nil {
		d.fail("iterator: %v", err)
	}
}

// compareAt requires both iterators to rest on the same entry, or neither.
func (d *differ) compareAt(where string, it, ref engine.Iterator, ok, rok bool) {
	d.t.Helper()
	switch {
	case ok != rok || it.Valid() != rok:
		d.fail("%s: engine moved=%v Valid=%v (at %q), reference moved=%v (at %q)", where, ok, it.Valid(), it.Key(), rok, ref.Key())
	case ok && (!bytes.Equal(it.Key(), ref.Key()) || !bytes.Equal(it.Value(), ref.Value())):
		d.fail("%s: engine at %q=%q, reference at %q=%q", where, it.Key(), clip(it.Value()), ref.Key(), clip(ref.Value()))
	}
}

// walk positions both iterators with First, Last or Seek, then takes a
// few random steps either way while they rest on a key.
func (d *differ) walk() {
	lower, upper := d.bounds("walk", d.newIterator)
	it, ref := d.iters(lower, upper)
	defer it.Close()
	defer ref.Close()
	var ok, rok bool
	switch d.rng.IntN(4) {
	case 0:
		d.what = fmt.Sprintf("walk [%s, %s) from First", show(lower), show(upper))
		ok, rok = it.First(), ref.First()
	case 1:
		d.what = fmt.Sprintf("walk [%s, %s) from Last", show(lower), show(upper))
		ok, rok = it.Last(), ref.Last()
	default:
		k := d.bound()
		if k == nil {
			k = d.key()
		}
		d.what = fmt.Sprintf("walk [%s, %s) from Seek(%q)", show(lower), show(upper), k)
		ok, rok = it.Seek(k), ref.Seek(k)
	}
	d.compareAt("start", it, ref, ok, rok)
	for i := 0; ok && i < 6; i++ {
		if d.rng.IntN(2) == 0 {
			ok, rok = it.Next(), ref.Next()
			d.compareAt(fmt.Sprintf("Next #%d", i), it, ref, ok, rok)
		} else {
			ok, rok = it.Prev(), ref.Prev()
			d.compareAt(fmt.Sprintf("Prev #%d", i), it, ref, ok, rok)
		}
	}
}

// snapshot opens iterators and a snapshot, writes, and requires the
// iterators, the snapshot's Gets and its iterators, reused with new
// bounds, to show the state from before the write.
func (d *differ) snapshot() {
	lower, upper := d.bounds("iterator beside a snapshot", d.newIterator)
	it, ref := d.iters(lower, upper)
	defer it.Close()
	defer ref.Close()
	snap, err := engine.NewSnapshot(d.db)
	if err != nil {
		d.fail("NewSnapshot: %v", err)
	}
	defer snap.Close()
	rsnap, err := engine.NewSnapshot(d.ref)
	if err != nil {
		d.fail("reference NewSnapshot: %v", err)
	}
	defer rsnap.Close()
	k, v := d.key(), d.value()
	start, end := d.key(), d.key()
	writes := fmt.Sprintf("Put(%q) and DeleteRange(%q, %q)", k, start, end)
	d.what = fmt.Sprintf("scan [%s, %s) of an iterator opened before %s", show(lower), show(upper), writes)
	d.both(d.db.Put(k, v), d.ref.Put(k, v))
	d.deleteRange(start, end)
	d.what = fmt.Sprintf("scan [%s, %s) of an iterator opened before %s", show(lower), show(upper), writes)
	d.compareIters(it, ref, d.rng.IntN(2) == 0)

	g := d.key()
	d.what = fmt.Sprintf("Get(%q) of a snapshot taken before %s", g, writes)
	d.compareGetOn(snap, rsnap, g)
	sit, rsit := d.itersOn(snap, rsnap, lower, upper)
	for range 3 {
		lower, upper = d.bounds("SetBounds of a snapshot's iterator", func(o engine.IterOptions) error {
			_, err := engine.SetBounds(snap, sit, o)
			return err
		})
		opts := engine.IterOptions{LowerBound: lower, UpperBound: upper}
		d.what = fmt.Sprintf("scan of a snapshot taken before %s, its iterator reused for [%s, %s)", writes, show(lower), show(upper))
		var err, rerr error
		sit, err = engine.SetBounds(snap, sit, opts)
		rsit, rerr = engine.SetBounds(rsnap, rsit, opts)
		d.both(err, rerr)
		d.compareIters(sit, rsit, d.rng.IntN(2) == 0)
	}
	d.both(sit.Close(), rsit.Close())
}
