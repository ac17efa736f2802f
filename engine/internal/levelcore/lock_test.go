package levelcore_test

import (
	"errors"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/hyperleveldb"
	"github.com/tsbench/storage/engine/leveldb"
	"github.com/tsbench/storage/engine/rocksdb"
)

// TestOpenLocked checks that a directory a library of the family holds
// open is reported as engine.ErrLocked, from the library's own lock
// message: engine.Open, which refuses it first, is bypassed.
func TestOpenLocked(t *testing.T) {
	for name, open := range map[string]func(string, engine.Options) (engine.Backend, error){
		"leveldb":      func(dir string, o engine.Options) (engine.Backend, error) { return leveldb.Open(dir, o) },
		"hyperleveldb": func(dir string, o engine.Options) (engine.Backend, error) { return hyperleveldb.Open(dir, o) },
		"rocksdb":      func(dir string, o engine.Options) (engine.Backend, error) { return rocksdb.Open(dir, o) },
	} {
		dir := t.TempDir()
		db, err := open(dir, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		second, err := open(dir, engine.Options{})
		if err == nil {
			second.Close()
			t.Errorf("%s: second Open of the same directory succeeded", name)
		} else if !errors.Is(err, engine.ErrLocked) {
			t.Errorf("%s: second Open = %v, want engine.ErrLocked", name, err)
		}
		db.Close()
	}
}
