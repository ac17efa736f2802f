package hyperleveldb

// #include "binding.h"
import "C"

import "github.com/tsbench/storage/engine"

// snapshot is a HyperLevelDB snapshot: a sequence number its Gets and
// iterators read the database at, through read options naming it.
type snapshot struct {
	db *DB
	s  *C.hyperleveldb_snapshot_t // nil once released
	ro *C.hyperleveldb_readoptions_t
}

// NewSnapshot implements engine.Snapshotter with HyperLevelDB's own
// snapshot.
func (db *DB) NewSnapshot() (engine.Snapshot, error) {
	s := C.hyperleveldb_create_snapshot(db.db)
	ro := C.hyperleveldb_readoptions_create()
	C.hyperleveldb_readoptions_set_verify_checksums(ro, db.verify)
	C.hyperleveldb_readoptions_set_snapshot(ro, s)
	return &snapshot{db: db, s: s, ro: ro}, nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) { return s.db.get(s.ro, key) }

func (s *snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return s.db.newIterator(s.ro, opts)
}

// Close releases the snapshot; its iterators, which engine.Open makes
// the caller close first, read it until then.
func (s *snapshot) Close() error {
	if s.s == nil {
		return engine.ErrClosed
	}
	C.hyperleveldb_readoptions_destroy(s.ro)
	C.hyperleveldb_release_snapshot(s.db.db, s.s)
	s.s = nil
	return nil
}
