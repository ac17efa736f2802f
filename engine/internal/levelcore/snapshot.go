package levelcore

/*
#include "levelcore.h"

static void *lc_snapshot(const levelcore_ops *o, void *db) { return o->snapshot(db); }
static void lc_snapshot_free(const levelcore_ops *o, void *db, void *snap) { o->snapshot_free(db, snap); }
*/
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// snapshot is a snapshot of the library: a sequence number its Gets and
// iterators read the database at, through read options naming it.
type snapshot struct {
	d        *DB
	snap, ro unsafe.Pointer // snap is nil once released
}

// NewSnapshot implements engine.Snapshotter with the library's own
// snapshot.
func (d *DB) NewSnapshot() (engine.Snapshot, error) {
	s := C.lc_snapshot(d.ops, d.db)
	return &snapshot{d: d, snap: s, ro: d.readOptions(s)}, nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) { return s.d.get(s.ro, key) }

func (s *snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	return s.d.newIterator(s.ro, s.snap, opts)
}

// Close releases the snapshot; its iterators, which engine.Open makes
// the caller close first, read it until then.
func (s *snapshot) Close() error {
	if s.snap == nil {
		return engine.ErrClosed
	}
	s.d.freeReadOptions(s.ro)
	C.lc_snapshot_free(s.d.ops, s.d.db, s.snap)
	s.snap = nil
	return nil
}
