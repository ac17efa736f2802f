package all_test

import (
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
)

func TestAllEnginesRegistered(t *testing.T) {
	want := []string{"badger", "bbolt", "goleveldb", "hyperleveldb", "leveldb", "lmdb", "pebble", "rocksdb"}
	if got := engine.Names(); !slices.Equal(got, want) {
		t.Fatalf("engine.Names() = %v, want %v", got, want)
	}
	for _, name := range want {
		if engine.Version(name) == "" {
			t.Errorf("engine %s reports no library version", name)
		}
	}
}
