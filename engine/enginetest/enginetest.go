package enginetest

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tsbench/storage/engine"
)

// Factory opens the engine under test in dir. Run calls it again with the
// same dir to reopen, and with unusable dirs to check the errors, so it
// should go through engine.Open.
type Factory func(t *testing.T, dir string) (engine.Engine, error)

// onEngine lists the subtests that need nothing but an open engine, in
// the order Run runs them, each with the engine opened in a directory of
// its own.
var onEngine = []struct {
	name string
	test func(t *testing.T, db engine.Engine)
}{
	{"Ordering", testOrdering},
	{"GetMissing", testGetMissing},
	{"Bounds", testBounds},
	{"Seek", testSeek},
	{"DirectionSwitch", testDirectionSwitch},
	{"UnpositionedIterator", testUnpositioned},
	{"EmptyValue", testEmptyValue},
	{"LargeValue", testLargeValue},
	{"Overwrite", testOverwrite},
	{"Delete", testDelete},
	{"DeleteRange", testDeleteRange},
	{"InvalidRange", testInvalidRange},
	{"Batch", testBatch},
	{"BatchReuse", testBatchReuse},
	{"BatchClose", testBatchClose},
	{"CommitContext", testCommitContext},
	{"BatchSize", testBatchSize},
	{"LargeBatch", testLargeBatch},
	{"IteratorSnapshot", testIteratorSnapshot},
	{"Snapshot", testSnapshot},
	{"SnapshotFallback", testSnapshotFallback},
	{"SetBounds", testSetBounds},
	{"SetBoundsFallback", testSetBoundsFallback},
	{"AppendEntries", testAppendEntries},
	{"SliceOwnership", testSliceOwnership},
	{"KeyLimits", testKeyLimits},
	{"KeysBeyondCommon", testKeysBeyondCommon},
	{"WriteLimits", testWriteLimits},
	{"CompactWithOpenIterator", testCompactWithOpenIterator},
	{"EstimateSize", testEstimateSize},
	{"EstimateSizeFallback", testEstimateSizeFallback},
	{"Metrics", testMetrics},
	{"MetricsFallback", testMetricsFallback},
	{"IteratorAfterClose", testIteratorAfterClose},
	{"CloseTwice", testCloseTwice},
	{"ConcurrentReaders", testConcurrentReaders},
	{"MaintenanceWithReaders", testMaintenanceWithReaders},
}

// onDir lists the subtests that open the engine in their directory
// themselves, to reopen it, open it twice or damage its files, in the
// order Run runs them after onEngine's.
var onDir = []struct {
	name string
	test func(t *testing.T, open Factory, dir string)
}{
	{"FailedCommit", testFailedCommit},
	{"CommonKeys", testCommonKeys},
	{"Persistence", testPersistence},
	{"Compact", testCompact},
	{"Checkpoint", testCheckpoint},
	{"Copy", testCopy},
	{"UseAfterClose", testUseAfterClose},
	{"Broken", testBroken},
	{"CloseWithOpenIterator", testCloseWithOpenIterator},
	{"ConcurrentWriters", testConcurrentWriters},
	{"ReopenAfterKill", testReopenAfterKill},
	{"WrongEngine", testWrongEngine},
	{"UnwritableDir", testUnwritableDir},
	{"LockedInProcess", testLockedInProcess},
	{"LockedOtherProcess", testLockedOtherProcess},
	{"Corrupt", testCorrupt},
	{"Differential", testDifferential},
}

// Run runs the acceptance suite, one subtest per concern, each in its own
// temporary directory. In the second process that the LockedOtherProcess
// subtest starts from the same test binary, it only holds a directory
// open.
//
// An engine ordered only within a prefix (engine.OrderPrefix) runs the
// suite through a view that puts one fixed prefix before every key, with
// the subtests the view cannot show skipped with their reason, and
// WithinPrefix on the engine itself.
func Run(t *testing.T, open Factory) {
	var n atomic.Int64 // the prefix, once an engine was opened
	open = viewed(open, &n)
	if dir := os.Getenv(holdEnv); dir != "" {
		hold(t, open, dir)
		return
	}
	if dir := os.Getenv(crashEnv); dir != "" {
		crashWrite(t, open, dir)
		return
	}
	skip := func(t *testing.T, name string) {
		if why := prefixSkips[name]; n.Load() > 0 && why != "" {
			t.Skip(why)
		}
	}
	for _, s := range onEngine {
		t.Run(s.name, func(t *testing.T) {
			db := mustOpen(t, open, t.TempDir())
			skip(t, s.name)
			s.test(t, db)
		})
	}
	for _, s := range onDir {
		t.Run(s.name, func(t *testing.T) {
			skip(t, s.name)
			s.test(t, open, t.TempDir())
		})
	}
	if p := int(n.Load()); p > 0 {
		t.Run("WithinPrefix", func(t *testing.T) {
			db := mustOpen(t, open, t.TempDir())
			testWithinPrefix(t, db.(*prefixView).e, p)
		})
	}
}

// mustOpen opens the engine in dir and closes it when the test ends, unless
// the test closed it already.
func mustOpen(t *testing.T, open Factory, dir string) engine.Engine {
	t.Helper()
	db, err := open(t, dir)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	if db == nil {
		t.Fatalf("open %s: nil engine and nil error", dir)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// reopen closes db and opens dir again.
func reopen(t *testing.T, open Factory, dir string, db engine.Engine) engine.Engine {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return mustOpen(t, open, dir)
}

// safeOpen calls the factory turning a panic into a test failure, for the
// checks that a bad directory gives an error rather than a crash. An engine
// it opens anyway is closed.
func safeOpen(t *testing.T, open Factory, dir string) error {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("open %s panicked: %v", dir, r)
		}
	}()
	db, err := open(t, dir)
	if err == nil && db != nil {
		db.Close()
	}
	return err
}

// kv is an entry in the readable form the checks compare; keys and values
// are binary strings shown with %q.
type kv struct{ k, v string }

func (e kv) String() string { return fmt.Sprintf("%q=%q", clip([]byte(e.k)), clip([]byte(e.v))) }

func put(t *testing.T, db engine.Engine, k, v string) {
	t.Helper()
	if err := db.Put([]byte(k), []byte(v)); err != nil {
		t.Fatalf("Put(%q): %v", k, err)
	}
}

func del(t *testing.T, db engine.Engine, k string) {
	t.Helper()
	if err := db.Delete([]byte(k)); err != nil {
		t.Fatalf("Delete(%q): %v", k, err)
	}
}

func deleteRange(t *testing.T, db engine.Engine, start, end string) {
	t.Helper()
	if err := db.DeleteRange([]byte(start), []byte(end)); err != nil {
		t.Fatalf("DeleteRange(%q, %q): %v", start, end, err)
	}
}

// newBatch returns a batch of db that is closed when the test ends.
func newBatch(t *testing.T, db engine.Engine) engine.Batch {
	b := db.NewBatch()
	t.Cleanup(func() { b.Close() })
	return b
}

func commit(t *testing.T, b engine.Batch) {
	t.Helper()
	if err := b.Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

// wantGet checks that Get(k) returns v.
func wantGet(t *testing.T, db engine.Reader, k, v string) {
	t.Helper()
	got, err := db.Get([]byte(k))
	if err != nil {
		t.Fatalf("Get(%q): %v, want %q", k, err, v)
	}
	if string(got) != v {
		t.Fatalf("Get(%q) = %q, want %q", k, clip(got), clip([]byte(v)))
	}
}

// wantMissing checks that Get(k) fails with ErrNotFound.
func wantMissing(t *testing.T, db engine.Reader, k string) {
	t.Helper()
	got, err := db.Get([]byte(k))
	if !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("Get(%q) = %q, %v; want an error wrapping engine.ErrNotFound", k, clip(got), err)
	}
}

// show formats an iterator bound, nil meaning unbounded.
func show(b []byte) string {
	if b == nil {
		return "nil"
	}
	return strconv.Quote(string(b))
}

// clip shortens large values in failure messages.
func clip(b []byte) string {
	if len(b) > 40 {
		return fmt.Sprintf("%s... (%d bytes)", b[:40], len(b))
	}
	return string(b)
}

func newIter(t *testing.T, db engine.Reader, lower, upper []byte) engine.Iterator {
	t.Helper()
	return NewIterator(t, db, engine.IterOptions{LowerBound: lower, UpperBound: upper})
}

func closeIter(t *testing.T, it engine.Iterator) {
	t.Helper()
	if err := it.Close(); err != nil {
		t.Fatalf("Iterator.Close: %v", err)
	}
}

// entries walks it from First with Next, or from Last with Prev if
// reverse, and returns what it found in ascending order either way.
func entries(it engine.Iterator, reverse bool) []kv {
	first, next := it.First, it.Next
	if reverse {
		first, next = it.Last, it.Prev
	}
	var got []kv
	for ok := first(); ok; ok = next() {
		got = append(got, kv{string(it.Key()), string(it.Value())})
	}
	if reverse {
		slices.Reverse(got)
	}
	return got
}

// direction names a walk for failure messages.
func direction(reverse bool) string {
	if reverse {
		return "reverse"
	}
	return "forward"
}

// scan returns the entries within bounds, walked forward or in reverse.
func scan(t *testing.T, db engine.Reader, lower, upper []byte, reverse bool) []kv {
	t.Helper()
	it := newIter(t, db, lower, upper)
	defer closeIter(t, it)
	got := entries(it, reverse)
	if err := it.Err(); err != nil {
		t.Fatalf("%s scan [%s, %s): %v", direction(reverse), show(lower), show(upper), err)
	}
	return got
}

// scanAll reads every entry of r without failing the test, for other
// goroutines and for reads that may fail: it returns the first error.
func scanAll(r engine.Reader) ([]kv, error) {
	it, err := r.NewIterator(engine.IterOptions{})
	if err != nil {
		return nil, err
	}
	got := entries(it, false)
	err = it.Err()
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	return got, err
}

// wantScan checks both forward and reverse scans within bounds.
func wantScan(t *testing.T, db engine.Reader, lower, upper []byte, want []kv) {
	t.Helper()
	for _, reverse := range []bool{false, true} {
		if got := scan(t, db, lower, upper, reverse); !slices.Equal(got, want) {
			t.Fatalf("%s scan [%s, %s):\n got  %v\n want %v", direction(reverse), show(lower), show(upper), got, want)
		}
	}
}

// wantAt checks a positioning call's result: moved is what it returned,
// and want is the key it should rest on, "" meaning none. Values in these
// checks are "v" + key.
func wantAt(t *testing.T, it engine.Iterator, call string, moved bool, want string) {
	t.Helper()
	if want == "" {
		if moved || it.Valid() {
			t.Fatalf("%s: rests on %q, want exhausted", call, it.Key())
		}
		return
	}
	if !moved || !it.Valid() {
		t.Fatalf("%s = %v (Valid %v, Err %v), want key %q", call, moved, it.Valid(), it.Err(), want)
	}
	if k, v := string(it.Key()), string(it.Value()); k != want || v != "v"+want {
		t.Fatalf("%s rests on %q=%q, want %q=%q", call, k, v, want, "v"+want)
	}
}

// wantMoves makes the moves of script on it, the iterator what names, and
// checks each as wantAt does. The steps, apart by spaces, are a call
// (First, Last, Next, Prev, or Seek with its key between parentheses),
// "=", and the key it must rest on, if any: "Seek(c)=d Next=".
func wantMoves(t *testing.T, it engine.Iterator, what, script string) {
	t.Helper()
	moves := map[string]func() bool{"First": it.First, "Last": it.Last, "Next": it.Next, "Prev": it.Prev}
	steps := strings.Fields(script)
	for i, step := range steps {
		call, want, ok := strings.Cut(step, "=")
		move := moves[call]
		if key, seek := strings.CutPrefix(call, "Seek("); seek && strings.HasSuffix(key, ")") {
			move = func() bool { return it.Seek([]byte(strings.TrimSuffix(key, ")"))) }
		}
		if !ok || move == nil {
			t.Fatalf("wantMoves: step %q is not Call=key", step)
		}
		wantAt(t, it, fmt.Sprintf("%s: %q after %q", what, call, steps[:i]), move(), want)
	}
}

// putAll stores each key with value "v" + key.
func putAll(t *testing.T, db engine.Engine, keys ...string) []kv {
	t.Helper()
	var want []kv
	for _, k := range keys {
		put(t, db, k, "v"+k)
		want = append(want, kv{k, "v" + k})
	}
	return want
}
