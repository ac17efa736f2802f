package rocksdb

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// recognize reports whether dir holds a RocksDB store written without
// engine.Open (engine.Driver.Recognize): an IDENTITY file and an OPTIONS
// file naming a rocksdb_version. The LevelDB family writes neither, and
// Pebble's OPTIONS files name a pebble_version instead.
func recognize(dir string) (bool, error) {
	if _, err := os.Stat(filepath.Join(dir, "IDENTITY")); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "OPTIONS-") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return false, err
		}
		if strings.Contains(string(b), "rocksdb_version=") {
			return true, nil
		}
	}
	return false, nil
}
