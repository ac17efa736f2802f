package lmdb_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/lmdb"
)

// TestConfig checks that the shipped config file loads, so it cannot drift
// from the Options it documents.
func TestConfig(t *testing.T) {
	o, err := engine.LoadConfig("lmdb", "../../configs/lmdb.toml")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := o.Engine.(*lmdb.Options)
	if !ok {
		t.Fatalf("Engine = %T, want *lmdb.Options", o.Engine)
	}
	want := lmdb.Options{MapSize: lmdb.DefaultMapSize, GrowthFactor: lmdb.DefaultGrowthFactor, MaxReaders: lmdb.DefaultMaxReaders}
	if *got != want {
		t.Fatalf("configs/lmdb.toml holds %+v, want the defaults %+v", *got, want)
	}
}
