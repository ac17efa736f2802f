package pebble1_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	_ "github.com/tsbench/storage/engine/pebble1"
)

// TestEngine runs the shared suite with a 512 KiB write buffer, as the
// engine "pebble" does: with the default 64 MiB, Pebble's recycled WAL
// files keep more stale bytes than the compaction check allows.
func TestEngine(t *testing.T) {
	enginetest.RunEngine(t, "pebble1", &engine.Options{WriteBufferSize: 512 << 10})
}

// TestVersion: the engine runs Pebble's v1 module, beside the v2 of the
// engine "pebble", and runs only when named.
func TestVersion(t *testing.T) {
	if v := engine.Version("pebble1"); !strings.HasPrefix(v, "v1.") {
		t.Errorf("pebble1 reports version %q, want v1.x", v)
	}
	if b := engine.Build("pebble1"); b != "Go module "+engine.Version("pebble1") {
		t.Errorf("pebble1 reports build %q", b)
	}
}

// TestMemTableLimit: a write buffer over Pebble's 4 GiB memtable limit,
// which the shared bounds allow, is refused in one line.
func TestMemTableLimit(t *testing.T) {
	_, err := engine.Open("pebble1", t.TempDir(), &engine.Options{WriteBufferSize: 8 << 30})
	if !errors.Is(err, engine.ErrInvalidOptions) || strings.Contains(err.Error(), "\n") {
		t.Errorf("open with write_buffer_size 8 GiB: %v, want one line wrapping engine.ErrInvalidOptions", err)
	}
}
