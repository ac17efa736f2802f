package badger_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/badger"
)

// TestConfig checks that the shipped config file loads, so it cannot drift
// from the Options it documents.
func TestConfig(t *testing.T) {
	o, err := engine.LoadConfig("badger", "../../configs/badger.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.Engine.(*badger.Options); !ok {
		t.Fatalf("Engine = %T, want *badger.Options", o.Engine)
	}
}
