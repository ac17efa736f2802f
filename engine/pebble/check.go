package pebble

import "github.com/tsbench/storage/engine/internal/sniff"

// Check implements engine.Checker with Pebble's CheckLevels: it reads
// every table, verifying each block's checksum, and checks that the
// levels' keys are in order, as a crash check wants after a reopen.
func (db *DB) Check() error {
	return kinds.Wrap(db.db.CheckLevels(nil))
}

// recognize reports whether dir holds a Pebble store: an OPTIONS file
// that names a pebble_version (RocksDB's name a rocksdb_version).
func recognize(dir string) (bool, error) {
	return sniff.Options(dir, "pebble_version=")
}
