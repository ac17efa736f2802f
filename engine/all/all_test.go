package all_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
)

func TestAllEnginesRegistered(t *testing.T) {
	want := []string{"badger", "bbolt", "etcd", "goleveldb", "hyperleveldb", "kyotocabinet", "leveldb", "lmdb", "pebble", "rocksdb", "sqlite"}
	if got := engine.Names(); !slices.Equal(got, want) {
		t.Fatalf("engine.Names() = %v, want %v", got, want)
	}
	for _, name := range want {
		// Only the version, which reports print after the engine's name:
		// "1.23", "v1.1.5", not "pebble v1.1.5".
		v := engine.Version(name)
		if bare := strings.TrimPrefix(v, "v"); bare == "" || !unicode.IsDigit(rune(bare[0])) {
			t.Errorf("engine %s reports library version %q, want a bare version such as 1.23 or v1.1.5", name, v)
		}
		// Every figure must be traceable to a build: a release or debug
		// build of a C library, or the Go module version. Whether a C
		// library is the release build is each backend's own test.
		b := engine.Build(name)
		if !strings.HasPrefix(b, "release") && !strings.HasPrefix(b, "debug: ") && !strings.HasPrefix(b, "Go module v") {
			t.Errorf("engine %s reports build %q, want a release or debug build or a Go module version", name, b)
		}
	}
}
