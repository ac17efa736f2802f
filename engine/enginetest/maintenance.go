package enginetest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
)

// testCompact writes 16 MiB of incompressible values, deletes 15/16 of
// them with DeleteRange and Delete, and requires Compact to keep every
// survivor and to leave at most a quarter of what was written on disk per
// copy the engine keeps (engine.CopiesOf). Disk use is diskusage's Used,
// the bytes holding data, and is counted above the freshly opened
// engine's: space an engine preallocates and then holds whatever it
// stores (write-ahead log segments) is not data that Compact can give
// back.
func testCompact(t *testing.T, open Factory, dir string) {
	const (
		n        = 4096
		valueLen = 4 << 10
		written  = n * valueLen
		rangeEnd = n * 7 / 8 // DeleteRange removes keys below this
	)
	db := mustOpen(t, open, dir)
	fresh, _ := dirUsage(t, dir)
	key := func(i int) string { return fmt.Sprintf("compact/%05d", i) }
	value := func(i int) string { return string(randomBytes(uint64(i), valueLen)) }
	b := newBatch(t, db)
	for i := range n {
		b.Put([]byte(key(i)), []byte(value(i)))
		if b.Len() == 256 {
			commit(t, b)
		}
	}
	commit(t, b)
	peak, _ := dirUsage(t, dir)

	deleteRange(t, db, key(0), key(rangeEnd))
	var survivors []kv
	for i := rangeEnd; i < n; i++ {
		if i%2 == 0 {
			survivors = append(survivors, kv{key(i), value(i)})
		} else {
			del(t, db, key(i))
		}
	}
	before, files := dirUsage(t, dir)
	peak = max(peak, before)
	// A bounded compaction must not lose anything either.
	if err := db.Compact([]byte(key(rangeEnd)), []byte(key(rangeEnd+100))); err != nil {
		t.Fatalf("Compact(range): %v", err)
	}
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact(nil, nil): %v", err)
	}
	after, _ := dirUsage(t, dir)
	for _, s := range survivors {
		wantGet(t, db, s.k, s.v)
	}
	wantMissing(t, db, key(0))
	wantMissing(t, db, key(n-1))
	if got := scan(t, db, nil, nil, false); !slices.Equal(got, survivors) {
		t.Fatalf("after Compact: scan finds %d entries, want the %d survivors", len(got), len(survivors))
	}
	if files == 0 {
		t.Skip("the engine keeps no files in its directory, so it has no space to give back")
	}
	copies := engine.CopiesOf(db)
	t.Logf("bytes used on disk: %d freshly opened, %d at peak, %d after deletes, %d after Compact; %d copies",
		fresh, peak, before, after, copies)
	if grown, limit := after-fresh, int64(copies)*written/4; grown > limit {
		t.Fatalf("after deleting 15/16 of %d bytes and compacting, %d bytes more are used on disk than when freshly opened (peak %d more), want at most %d (a quarter of what was written, times %d copies): deleted data must leave the disk",
			written, grown, peak-fresh, limit, copies)
	}
}

// dirUsage returns the bytes holding data in dir (diskusage's Used) and how
// many files it holds besides the engine marker.
func dirUsage(t *testing.T, dir string) (int64, int) {
	t.Helper()
	u, err := diskusage.Measure(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := u.Files
	if _, err := os.Stat(filepath.Join(dir, markerFile)); err == nil {
		files--
	}
	return u.Used, files
}

// testCompactWithOpenIterator compacts while an iterator and a snapshot
// are open. An engine whose Limits say ExclusiveCompact must refuse with
// engine.ErrOpenIterators until they close; any other must compact and
// leave both their view.
func testCompactWithOpenIterator(t *testing.T, db engine.Engine) {
	before := putAll(t, db, "a", "b", "c", "d")
	it := newIter(t, db, nil, nil)
	s, err := engine.NewSnapshot(db)
	if err != nil {
		t.Fatalf("NewSnapshot: %v", err)
	}
	del(t, db, "b")
	deleteRange(t, db, "c", "e")
	err = db.Compact(nil, nil)
	if engine.LimitsOf(db).ExclusiveCompact {
		if !errors.Is(err, engine.ErrOpenIterators) {
			t.Fatalf("Compact on an ExclusiveCompact engine with an iterator open = %v, want engine.ErrOpenIterators", err)
		}
	} else if err != nil {
		t.Fatalf("Compact with an iterator and a snapshot open = %v, want nil; an engine that cannot compact beside them says ExclusiveCompact in its Driver.Limits", err)
	}
	if seen := entries(it, false); !slices.Equal(seen, before) {
		t.Fatalf("iterator opened before Compact sees %v, want %v", seen, before)
	}
	wantScan(t, s, nil, nil, before)
	closeIter(t, it)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact with nothing open: %v", err)
	}
	wantScan(t, db, nil, nil, before[:1])
}

// checkpointData writes entries of every size the suite uses, and returns
// them in order.
func checkpointData(t *testing.T, db engine.Engine) []kv {
	t.Helper()
	want := putAll(t, db, "\x00", "a", "b", "c")
	b := newBatch(t, db)
	for i := range 300 {
		k, v := fmt.Sprintf("d/%03d", i), string(randomBytes(uint64(i), 4<<10))
		b.Put([]byte(k), []byte(v))
		want = append(want, kv{k, v})
	}
	commit(t, b)
	put(t, db, "e", "")
	return append(want, kv{"e", ""})
}

// testCheckpoint takes a checkpoint with an iterator open, keeps writing,
// and opens the checkpoint beside the engine: it must hold the state at
// the checkpoint and be independent of the engine.
func testCheckpoint(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	if _, ok := db.(engine.Checkpointer); !ok {
		t.Fatalf("%T is not an engine.Checkpointer: open the engine with engine.Open", db)
	}
	want := checkpointData(t, db)
	it := newIter(t, db, nil, nil)
	cp := filepath.Join(t.TempDir(), "checkpoint")
	if err := engine.Checkpoint(db, cp); err != nil {
		t.Fatalf("Checkpoint: %v", err)
	}
	closeIter(t, it)
	put(t, db, "a", "after")
	deleteRange(t, db, "d/", "d0")
	if err := engine.Checkpoint(db, cp); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Checkpoint to an existing path = %v, want an error wrapping fs.ErrExist", err)
	}

	copied := mustOpen(t, open, cp)
	wantScan(t, copied, nil, nil, want)
	put(t, copied, "b", "in the copy")
	wantGet(t, db, "b", "vb")
	wantGet(t, db, "a", "after")
	copied = reopen(t, open, cp, copied)
	wantGet(t, copied, "b", "in the copy")
	wantGet(t, copied, "a", "va")
}

// testCopy checks engine.Copy, the fallback of Checkpoint, from the engine
// and from a snapshot into another engine of the same kind.
func testCopy(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	want := checkpointData(t, db)
	s, err := engine.NewSnapshot(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put(t, db, "a", "after the snapshot")

	dst := mustOpen(t, open, t.TempDir())
	put(t, dst, "z", "kept")
	if err := engine.Copy(dst, s); err != nil {
		t.Fatalf("Copy from a snapshot: %v", err)
	}
	wantScan(t, dst, nil, nil, append(want, kv{"z", "kept"}))

	dst2 := mustOpen(t, open, t.TempDir())
	if err := engine.Copy(dst2, db); err != nil {
		t.Fatalf("Copy from the engine: %v", err)
	}
	want[1].v = "after the snapshot"
	wantScan(t, dst2, nil, nil, want)
}

// estimateData writes 1 MiB of incompressible values under "e/" and a few
// small entries under "s/", compacts so that LSM engines have them in
// tables, and returns the exact bytes of keys and values of each range.
func estimateData(t *testing.T, db engine.Engine) (big, small int64) {
	t.Helper()
	b := newBatch(t, db)
	for i := range 256 {
		k, v := fmt.Sprintf("e/%03d", i), randomBytes(uint64(i), 4<<10)
		b.Put([]byte(k), v)
		big += int64(len(k) + len(v))
	}
	for i := range 16 {
		k := fmt.Sprintf("s/%02d", i)
		b.Put([]byte(k), []byte("small"))
		small += int64(len(k) + len("small"))
	}
	commit(t, b)
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	return big, small
}

// testEstimateSize checks the engine's estimate, native or not, within
// the slack of an estimate: compression, block granularity and overhead.
// Right after a write, before any Compact, the estimate must count it
// unless the engine's Limits say EstimateExcludesMemtable; after a
// Compact it must count it on every engine.
func testEstimateSize(t *testing.T, db engine.Engine) {
	if _, ok := db.(engine.SizeEstimator); !ok {
		t.Fatalf("%T is not an engine.SizeEstimator: open the engine with engine.Open", db)
	}
	const slack = 64 << 10
	b := newBatch(t, db)
	var fresh int64
	for i := range 256 {
		k, v := fmt.Sprintf("f/%03d", i), randomBytes(uint64(i)+1000, 4<<10)
		b.Put([]byte(k), v)
		fresh += int64(len(k) + len(v))
	}
	commit(t, b)
	got, err := engine.EstimateSize(db, []byte("f/"), []byte("f0"))
	if err != nil {
		t.Fatalf("EstimateSize of a range just written: %v", err)
	}
	excludes := engine.LimitsOf(db).EstimateExcludesMemtable
	t.Logf("EstimateSize of %d bytes just written = %d (Limits.EstimateExcludesMemtable %v)", fresh, got, excludes)
	switch {
	case got < 0 || got > fresh*2+slack:
		t.Errorf("EstimateSize of %d bytes just written = %d, want 0 to %d", fresh, got, fresh*2+slack)
	case !excludes && got < fresh/2:
		t.Errorf("EstimateSize of %d bytes just written = %d, want at least %d: writes still in memory count unless the engine's Limits say EstimateExcludesMemtable", fresh, got, fresh/2)
	}

	big, small := estimateData(t, db)
	if got, err := engine.EstimateSize(db, []byte("f/"), []byte("f0")); err != nil || got < fresh/2 || got > fresh*2+slack {
		t.Errorf("EstimateSize of %d bytes after a Compact = %d, %v; want %d to %d on every engine", fresh, got, err, fresh/2, fresh*2+slack)
	}
	for _, c := range []struct {
		name       string
		start, end string
		lo, hi     int64
	}{
		{"1 MiB range", "e/", "e0", big / 2, big*2 + slack},
		{"small range", "s/", "s0", 0, small + slack},
		{"empty range past the keys", "z", "zz", 0, slack},
	} {
		got, err := engine.EstimateSize(db, []byte(c.start), []byte(c.end))
		if err != nil {
			t.Fatalf("EstimateSize(%s): %v", c.name, err)
		}
		t.Logf("EstimateSize(%s) = %d; it holds %d bytes", c.name, got, map[bool]int64{true: big, false: small}[c.start == "e/"])
		if got < c.lo || got > c.hi {
			t.Errorf("EstimateSize(%s) = %d, want %d to %d", c.name, got, c.lo, c.hi)
		}
	}
	if got, err := engine.EstimateSize(db, nil, nil); err != nil || got < big/2 {
		t.Errorf("EstimateSize(nil, nil) = %d, %v; want at least %d", got, err, big/2)
	}
}

// testEstimateSizeFallback checks the fallback, which scans and is exact.
func testEstimateSizeFallback(t *testing.T, db engine.Engine) {
	big, small := estimateData(t, db)
	for _, c := range []struct {
		start, end string
		want       int64
	}{{"e/", "e0", big}, {"s/", "s0", small}, {"z", "zz", 0}, {"", "", big + small}} {
		var start, end []byte
		if c.start != "" {
			start, end = []byte(c.start), []byte(c.end)
		}
		if got, err := engine.EstimateSize(hidden{db}, start, end); err != nil || got != c.want {
			t.Errorf("fallback EstimateSize(%s, %s) = %d, %v; want exactly %d", show(start), show(end), got, err, c.want)
		}
	}
}

// testMetrics checks what the engine reports: known names only, no
// negative values, and counters that do not go back across writes and a
// compaction.
func testMetrics(t *testing.T, db engine.Engine) {
	if _, ok := db.(engine.MetricsReporter); !ok {
		t.Fatalf("%T is not an engine.MetricsReporter: open the engine with engine.Open", db)
	}
	read := func(when string) engine.Metrics {
		t.Helper()
		m, err := engine.ReadMetrics(db)
		if err != nil {
			t.Fatalf("ReadMetrics %s: %v", when, err)
		}
		for name, v := range m {
			if !slices.Contains(engine.MetricNames(), name) {
				t.Errorf("metric %q %s is not one of engine.MetricNames(); add it there or leave it out", name, when)
			}
			if v < 0 {
				t.Errorf("metric %s = %d %s, want >= 0", name, v, when)
			}
		}
		return m
	}
	before := read("at open")
	b := newBatch(t, db)
	for i := range 512 {
		b.Put(fmt.Appendf(nil, "m/%04d", i), randomBytes(uint64(i), 2<<10))
	}
	commit(t, b)
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	for i := range 64 {
		wantGet(t, db, fmt.Sprintf("m/%04d", i*8), string(randomBytes(uint64(i*8), 2<<10)))
	}
	after := read("after writes, a compaction and reads")
	t.Logf("metrics at open %v, after %v", before, after)
	for name, v := range after {
		if !engine.IsGauge(name) && v < before[name] {
			t.Errorf("counter %s went back from %d to %d", name, before[name], v)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.ReadMetrics(db); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("ReadMetrics after Close = %v, want engine.ErrClosed", err)
	}
}

// testMetricsFallback checks that an engine without metrics reports none.
func testMetricsFallback(t *testing.T, db engine.Engine) {
	if m, err := engine.ReadMetrics(hidden{db}); err != nil || len(m) != 0 {
		t.Errorf("ReadMetrics of an engine without MetricsReporter = %v, %v; want none", m, err)
	}
}
