package lmdb

// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"os"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

var _ engine.Checkpointer = (*DB)(nil)

// Checkpoint implements engine.Checkpointer with LMDB's mdb_env_copy2: a
// compacted copy of the environment, as one read transaction sees it,
// written to dir/data.mdb while writers go on. The map stays in place
// meanwhile, so a writer that must grow it waits for the copy.
func (db *DB) Checkpoint(dir string) error {
	if err := db.readMap(); err != nil {
		return err
	}
	defer db.mapMu.RUnlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	return wrap("checkpoint", C.mdb_env_copy2(db.env, cdir, C.MDB_CP_COMPACT))
}
