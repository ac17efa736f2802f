package leveldb

// #include "binding.h"
import "C"

import "github.com/tsbench/storage/engine"

// snapshot is a LevelDB snapshot: a sequence number its Gets and
// iterators read the database at, through read options naming it.
type snapshot struct {
	d  *DB
	s  *C.leveldb_snapshot_t // nil once released
	ro *C.leveldb_readoptions_t
}

// NewSnapshot implements engine.Snapshotter with LevelDB's own snapshot.
func (d *DB) NewSnapshot() (engine.Snapshot, error) {
	s := C.leveldb_create_snapshot(d.db)
	ro := C.leveldb_readoptions_create()
	C.leveldb_readoptions_set_snapshot(ro, s)
	return &snapshot{d: d, s: s, ro: ro}, nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) { return s.d.get(s.ro, key) }

func (s *snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return s.d.newIterator(s.ro, opts)
}

// Close releases the snapshot; its iterators, which engine.Open makes
// the caller close first, read it until then.
func (s *snapshot) Close() error {
	if s.s == nil {
		return engine.ErrClosed
	}
	C.leveldb_readoptions_destroy(s.ro)
	C.leveldb_release_snapshot(s.d.db, s.s)
	s.s = nil
	return nil
}
