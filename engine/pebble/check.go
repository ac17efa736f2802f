package pebble

import (
	"os"
	"path/filepath"
	"strings"
)

// Check implements engine.Checker with Pebble's CheckLevels: it reads
// every table, verifying each block's checksum, and checks that the
// levels' keys are in order, as a crash check wants after a reopen.
func (db *DB) Check() error {
	if err := db.failed(); err != nil {
		return err
	}
	return kinds.Wrap(db.db.CheckLevels(nil))
}

// recognize reports whether dir holds a Pebble store: an OPTIONS file
// that names a pebble_version (RocksDB's name a rocksdb_version).
func recognize(dir string) (bool, error) {
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
		if strings.Contains(string(b), "pebble_version=") {
			return true, nil
		}
	}
	return false, nil
}
