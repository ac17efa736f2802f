package hyperleveldb_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/hyperleveldb"
	"github.com/tsbench/storage/engine/internal/cursor/cursortest"
)

func openHyperleveldb(dir string) (engine.Engine, error) {
	return engine.Open("hyperleveldb", dir, nil)
}

// TestIteratorFills walks data spanning many iterator fills.
func TestIteratorFills(t *testing.T) { cursortest.Run(t, openHyperleveldb) }

// BenchmarkIterate measures one iterator step; allocs/op must be 0.
func BenchmarkIterate(b *testing.B) { cursortest.Benchmark(b, openHyperleveldb) }
