package bbolt_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/bbolt"
)

// TestConfig checks that the shipped config file loads, so it cannot drift
// from the Options it documents.
func TestConfig(t *testing.T) {
	o, err := engine.LoadConfig("bbolt", "../../configs/bbolt.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.Engine.(*bbolt.Options); !ok {
		t.Fatalf("Engine = %T, want *bbolt.Options", o.Engine)
	}
}
