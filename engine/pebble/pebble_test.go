package pebble_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	_ "github.com/tsbench/storage/engine/pebble"
)

// TestEngine runs the shared suite with a 512 KiB write buffer: its
// compaction check allows 4 MiB to stay on disk out of 16 MiB written, and
// with the default 64 MiB buffer Pebble's recycled WAL files alone keep
// more than that of stale records (TestWALFootprint; doc.go).
func TestEngine(t *testing.T) {
	enginetest.RunEngine(t, "pebble", &engine.Options{WriteBufferSize: 512 << 10})
}

func TestConfig(t *testing.T) { enginetest.Config(t, "pebble") }
