package pebble_test

import (
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/pebble"
)

// TestBlockCacheHoldsBlocks checks that with the default cache_size and
// write_buffer_size (64 MiB each) Pebble's block cache keeps the blocks a
// scan reads, and a second scan hits them: Pebble charges its memtables
// to the same cache, which a cache of cache_size alone leaves no room.
func TestBlockCacheHoldsBlocks(t *testing.T) {
	dir := t.TempDir()
	db, err := engine.Open("pebble", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	for i := range 100_000 {
		b.Put(fmt.Appendf(nil, "key%09d", i), make([]byte, 100))
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Reopened, Pebble flushes the WAL to tables and starts a memtable of
	// the full write_buffer_size.
	if db, err = engine.Open("pebble", dir, nil); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 {
		it, err := db.NewIterator(engine.IterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ok := it.First(); ok; ok = it.Next() {
			n++
		}
		if err := it.Close(); err != nil || n != 100_000 {
			t.Fatalf("scanned %d keys: %v", n, err)
		}
	}
	m, err := engine.ReadMetrics(db)
	if err != nil {
		t.Fatal(err)
	}
	if m[engine.MetricCacheHits] == 0 || m[engine.MetricCacheBytes] == 0 {
		t.Errorf("after two scans: %d cache hits, %d bytes cached (memtables %d bytes): the cache holds no blocks",
			m[engine.MetricCacheHits], m[engine.MetricCacheBytes], m[engine.MetricMemtableBytes])
	}
}
