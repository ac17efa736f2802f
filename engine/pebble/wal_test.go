package pebble_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/internal/diskusage"
)

// TestWALFootprint checks what doc.go says of the WAL's footprint with the
// default options: once everything is deleted and compacted, the recycled
// WAL files still hold their stale records (used bytes) and their
// preallocated space (actual bytes only), until the store is reopened.
func TestWALFootprint(t *testing.T) {
	dir := t.TempDir()
	db := enginetest.Open(t, "pebble", dir, nil)
	// 16 MiB of incompressible values: several WAL files, as the memtable
	// grows from 256 KiB.
	r := rand.New(rand.NewPCG(1, 2))
	value := make([]byte, 4<<10)
	b := db.NewBatch()
	defer b.Close()
	for i := range 4096 {
		for j := range value {
			value[j] = byte(r.Uint32())
		}
		b.Put(fmt.Appendf(nil, "wal/%05d", i), value)
		if b.Len() == 256 {
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.DeleteRange(nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil); err != nil {
		t.Fatal(err)
	}
	u := measure(t, dir)
	t.Logf("after deleting everything and compacting: %+v", u)
	if u.Used < 1<<20 {
		t.Errorf("used %d bytes, want over 1 MiB of stale records in recycled WAL files (see doc.go)", u.Used)
	}
	// Each recycled file keeps its preallocation of 110% of the 64 MiB
	// write buffer.
	if prealloc := u.Actual - u.Used; prealloc < 64<<20 {
		t.Errorf("actual bytes exceed used bytes by %d, want at least one WAL file's preallocation (70 MiB)", prealloc)
	}

	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	enginetest.Open(t, "pebble", dir, nil)
	// Pebble deletes the old files in the background once open.
	deadline := time.Now().Add(10 * time.Second)
	for u = measure(t, dir); u.Used > 64<<10 || u.Actual > 1<<20; u = measure(t, dir) {
		if time.Now().After(deadline) {
			t.Fatalf("10s after reopening: %+v, want the recycled WAL files deleted", u)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func measure(t *testing.T, dir string) diskusage.Usage {
	t.Helper()
	u, err := diskusage.Measure(dir)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
