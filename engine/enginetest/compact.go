package enginetest

import (
	"errors"
	"fmt"
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
	fresh, _ := measure(t, dir)
	key := func(i int) string { return fmt.Sprintf("compact/%05d", i) }
	value := func(i int) string { return string(randomBytes(uint64(i), valueLen)) }
	b := db.NewBatch()
	defer b.Close()
	for i := range n {
		b.Put([]byte(key(i)), []byte(value(i)))
		if b.Len() == 256 {
			commit(t, b)
		}
	}
	commit(t, b)
	peak, _ := measure(t, dir)

	deleteRange(t, db, key(0), key(rangeEnd))
	var survivors []kv
	for i := rangeEnd; i < n; i++ {
		if i%2 == 0 {
			survivors = append(survivors, kv{key(i), value(i)})
		} else {
			del(t, db, key(i))
		}
	}
	before, files := measure(t, dir)
	peak = max(peak, before)
	// A bounded compaction must not lose anything either.
	if err := db.Compact([]byte(key(rangeEnd)), []byte(key(rangeEnd+100))); err != nil {
		t.Fatalf("Compact(range): %v", err)
	}
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact(nil, nil): %v", err)
	}
	after, _ := measure(t, dir)
	for _, s := range survivors {
		wantGet(t, db, s.k, s.v)
	}
	wantMissing(t, db, key(0))
	wantMissing(t, db, key(n-1))
	if got := scan(t, db, nil, nil); !slices.Equal(got, survivors) {
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

// measure returns the bytes holding data in dir (diskusage's Used) and how
// many files it holds besides the engine marker.
func measure(t *testing.T, dir string) (int64, int) {
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
func testCompactWithOpenIterator(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
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
	var seen []kv
	for ok := it.First(); ok; ok = it.Next() {
		seen = append(seen, kv{string(it.Key()), string(it.Value())})
	}
	if !slices.Equal(seen, before) {
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
