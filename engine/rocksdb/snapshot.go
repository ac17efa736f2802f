package rocksdb

// #include "binding.h"
import "C"

import "github.com/tsbench/storage/engine"

// snapshot is a RocksDB snapshot: a sequence number its Gets and
// iterators read the database at.
type snapshot struct {
	d  *DB
	s  *C.rocksdb_snapshot_t // nil once released
	ro *C.rocksdb_readoptions_t
}

// NewSnapshot implements engine.Snapshotter with RocksDB's own snapshot.
func (d *DB) NewSnapshot() (engine.Snapshot, error) {
	s := C.rocksdb_create_snapshot(d.db)
	ro := C.rocksdb_readoptions_create()
	C.rocksdb_readoptions_set_snapshot(ro, s)
	return &snapshot{d: d, s: s, ro: ro}, nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) { return s.d.get(s.ro, key) }

// NewIterator returns an iterator reading the snapshot; its own read
// options, which hold its bounds, name the snapshot too.
func (s *snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return s.d.newIterator(s.s, opts)
}

// Close releases the snapshot; its iterators, which engine.Open makes
// the caller close first, read it until then.
func (s *snapshot) Close() error {
	if s.s == nil {
		return engine.ErrClosed
	}
	C.rocksdb_readoptions_destroy(s.ro)
	C.rocksdb_release_snapshot(s.d.db, s.s)
	s.s = nil
	return nil
}
