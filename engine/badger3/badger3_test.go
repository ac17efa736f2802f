package badger3_test

import (
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/badger3"
	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "badger3", nil) }

// TestVersion: the engine runs Badger's v3 module, beside the v4 of the
// engine "badger".
func TestVersion(t *testing.T) {
	if v := engine.Version("badger3"); !strings.HasPrefix(v, "v3.") {
		t.Errorf("badger3 reports version %q, want v3.x", v)
	}
	if b := engine.Build("badger3"); b != "Go module "+engine.Version("badger3") {
		t.Errorf("badger3 reports build %q", b)
	}
}
