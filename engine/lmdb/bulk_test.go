package lmdb_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cursor/cursortest"
	_ "github.com/tsbench/storage/engine/lmdb"
)

func openLmdb(dir string) (engine.Engine, error) { return engine.Open("lmdb", dir, nil) }

// TestIteratorFills walks data spanning many iterator fills.
func TestIteratorFills(t *testing.T) { cursortest.Run(t, openLmdb) }

// BenchmarkIterate measures one iterator step; allocs/op must be 0.
func BenchmarkIterate(b *testing.B) { cursortest.Benchmark(b, openLmdb) }
