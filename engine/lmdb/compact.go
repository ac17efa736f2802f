package lmdb

// #include "binding.h"
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fileswap"
)

// Compact gives the space of deleted data back to the file system. LMDB
// reuses freed pages but never shrinks its file, so Compact writes a
// compacting copy (free pages dropped, tree repacked) beside the data
// file, makes it durable, and renames it over the original. The rename is
// atomic: an interruption leaves either the old file or the new one, both
// complete, and Open removes a leftover partial copy. LMDB cannot compact
// part of a tree, so start and end are ignored and the whole file is
// rewritten, which takes time proportional to the live data.
//
// Open iterators' transactions belong to the environment it replaces, so
// the driver's Limits say ExclusiveCompact: engine.Open runs it only with
// none open, and never two at once. It waits for reads and writes in
// flight and holds new ones until done. If it cannot open the environment
// again, env is lost, and the error says so (see DB.lost).
func (db *DB) Compact(start, end []byte) error {
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	db.mapMu.Lock()
	defer db.mapMu.Unlock()

	tmp := db.compactFile()
	if err := db.copyCompact(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	db.dropIdle()
	C.mdb_env_close(db.env)
	renameErr := fileswap.Replace(tmp, filepath.Join(db.dir, dataFile))
	// Reopen whether or not the rename happened: either way the data file
	// in place is complete.
	if err := db.openEnv(); err != nil {
		db.lost = errors.Join(renameErr, fmt.Errorf("%w: lmdb: reopen after compaction: %w", engine.ErrBroken, err))
		return db.lost
	}
	if renameErr != nil {
		return fmt.Errorf("lmdb: compact: %w", renameErr)
	}
	return nil
}

// copyCompact writes a compacted copy of the environment to path and
// syncs it.
func (db *DB) copyCompact(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("lmdb: compact: %w", err)
	}
	if rc := C.mdb_env_copyfd2(db.env, C.int(f.Fd()), C.MDB_CP_COMPACT); rc != 0 {
		f.Close()
		return wrap("compacting copy", rc)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("lmdb: compact: %w", err)
	}
	return nil
}
