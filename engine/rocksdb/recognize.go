package rocksdb

import "github.com/tsbench/storage/engine/internal/sniff"

// recognize reports whether dir holds a RocksDB store written without
// engine.Open (engine.Driver.Recognize): an IDENTITY file and an OPTIONS
// file naming a rocksdb_version. The LevelDB family writes neither, and
// Pebble's OPTIONS files name a pebble_version instead.
func recognize(dir string) (bool, error) {
	if ok, err := sniff.Files(dir, "IDENTITY"); !ok || err != nil {
		return false, err
	}
	return sniff.Options(dir, "rocksdb_version=")
}
