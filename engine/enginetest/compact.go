package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tsbench/storage/internal/diskusage"
)

// testCompact writes 16 MiB of incompressible values, deletes 15/16 of
// them with DeleteRange and Delete, and requires Compact to keep every
// survivor and to leave at most a quarter of what was written on disk.
func testCompact(t *testing.T, open Factory, dir string) {
	const (
		n        = 4096
		valueLen = 4 << 10
		written  = n * valueLen
		rangeEnd = n * 7 / 8 // DeleteRange removes keys below this
	)
	db := mustOpen(t, open, dir)
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
	t.Logf("bytes on disk: %d at peak, %d after deletes, %d after Compact", peak, before, after)
	if after > written/4 {
		t.Fatalf("after deleting 15/16 of %d bytes and compacting, %d bytes remain on disk (peak %d), want at most %d: deleted data must leave the disk",
			written, after, peak, written/4)
	}
}

// measure returns the bytes dir occupies on disk and how many files it
// holds besides the engine marker.
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
	return u.Actual, files
}
