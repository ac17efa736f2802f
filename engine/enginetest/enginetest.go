package enginetest

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/tsbench/storage/engine"
)

// Factory opens the engine under test in dir. Run calls it again with the
// same dir to reopen, and with unusable dirs to check the errors, so it
// should go through engine.Open.
type Factory func(t *testing.T, dir string) (engine.Engine, error)

// suite lists the subtests in the order Run runs them.
var suite = []struct {
	name string
	test func(t *testing.T, open Factory, dir string)
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
	{"Batch", testBatch},
	{"BatchReuse", testBatchReuse},
	{"BatchClose", testBatchClose},
	{"BatchSize", testBatchSize},
	{"FailedCommit", testFailedCommit},
	{"LargeBatch", testLargeBatch},
	{"IteratorSnapshot", testIteratorSnapshot},
	{"Snapshot", testSnapshot},
	{"SnapshotFallback", testSnapshotFallback},
	{"SetBounds", testSetBounds},
	{"SetBoundsFallback", testSetBoundsFallback},
	{"SliceOwnership", testSliceOwnership},
	{"KeyLimits", testKeyLimits},
	{"CommonKeys", testCommonKeys},
	{"KeysBeyondCommon", testKeysBeyondCommon},
	{"Persistence", testPersistence},
	{"Compact", testCompact},
	{"CompactWithOpenIterator", testCompactWithOpenIterator},
	{"EstimateSize", testEstimateSize},
	{"EstimateSizeFallback", testEstimateSizeFallback},
	{"Metrics", testMetrics},
	{"MetricsFallback", testMetricsFallback},
	{"Checkpoint", testCheckpoint},
	{"Copy", testCopy},
	{"UseAfterClose", testUseAfterClose},
	{"CloseWithOpenIterator", testCloseWithOpenIterator},
	{"IteratorAfterClose", testIteratorAfterClose},
	{"ConcurrentReaders", testConcurrentReaders},
	{"ConcurrentWriters", testConcurrentWriters},
	{"MaintenanceWithReaders", testMaintenanceWithReaders},
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
func Run(t *testing.T, open Factory) {
	if dir := os.Getenv(holdEnv); dir != "" {
		hold(t, open, dir)
		return
	}
	if dir := os.Getenv(crashEnv); dir != "" {
		crashWrite(t, open, dir)
		return
	}
	for _, s := range suite {
		t.Run(s.name, func(t *testing.T) {
			s.test(t, open, t.TempDir())
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
	it, err := db.NewIterator(engine.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		t.Fatalf("NewIterator(%s, %s): %v", show(lower), show(upper), err)
	}
	return it
}

func closeIter(t *testing.T, it engine.Iterator) {
	t.Helper()
	if err := it.Close(); err != nil {
		t.Fatalf("Iterator.Close: %v", err)
	}
}

// scan returns the entries within bounds, forward with First and Next.
func scan(t *testing.T, db engine.Reader, lower, upper []byte) []kv {
	t.Helper()
	it := newIter(t, db, lower, upper)
	defer closeIter(t, it)
	var got []kv
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, kv{string(it.Key()), string(it.Value())})
	}
	if err := it.Err(); err != nil {
		t.Fatalf("forward scan [%s, %s): %v", show(lower), show(upper), err)
	}
	return got
}

// scanReverse returns the entries within bounds, backward with Last and
// Prev, in ascending order so that it compares with scan.
func scanReverse(t *testing.T, db engine.Reader, lower, upper []byte) []kv {
	t.Helper()
	it := newIter(t, db, lower, upper)
	defer closeIter(t, it)
	var got []kv
	for ok := it.Last(); ok; ok = it.Prev() {
		got = append(got, kv{string(it.Key()), string(it.Value())})
	}
	if err := it.Err(); err != nil {
		t.Fatalf("reverse scan [%s, %s): %v", show(lower), show(upper), err)
	}
	for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
		got[i], got[j] = got[j], got[i]
	}
	return got
}

// wantScan checks both forward and reverse scans within bounds.
func wantScan(t *testing.T, db engine.Reader, lower, upper []byte, want []kv) {
	t.Helper()
	if got := scan(t, db, lower, upper); !slices.Equal(got, want) {
		t.Fatalf("forward scan [%s, %s):\n got  %v\n want %v", show(lower), show(upper), got, want)
	}
	if got := scanReverse(t, db, lower, upper); !slices.Equal(got, want) {
		t.Fatalf("reverse scan [%s, %s):\n got  %v\n want %v", show(lower), show(upper), got, want)
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
