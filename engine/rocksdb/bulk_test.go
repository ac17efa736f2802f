package rocksdb_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor/cursortest"
	_ "github.com/tsbench/storage/engine/rocksdb"
)

func openRocksdb(dir string) (engine.Engine, error) { return engine.Open("rocksdb", dir, nil) }

// TestIteratorFills walks data spanning many iterator fills.
func TestIteratorFills(t *testing.T) { cursortest.Run(t, openRocksdb) }

// BenchmarkIterate measures one iterator step; allocs/op must be 0.
func BenchmarkIterate(b *testing.B) { cursortest.Benchmark(b, openRocksdb) }
