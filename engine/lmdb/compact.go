package lmdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine"
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
// Compact fails with engine.ErrOpenIterators while iterators are open,
// since their transactions belong to the environment it replaces; it
// waits for reads and writes in flight and holds new ones until done.
func (db *DB) Compact(start, end []byte) error {
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	if db.broken != nil {
		return db.broken
	}
	db.mapMu.Lock()
	defer db.mapMu.Unlock()
	if db.iters.Load() > 0 {
		return fmt.Errorf("lmdb: compact needs every iterator closed: %w", engine.ErrOpenIterators)
	}

	tmp := db.compactFile()
	if err := db.copyCompact(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	db.dropIdle()
	db.env.Close()
	renameErr := os.Rename(tmp, filepath.Join(db.dir, dataFile))
	if renameErr == nil {
		renameErr = syncDir(db.dir)
	} else {
		os.Remove(tmp)
	}
	// Reopen whether or not the rename happened: either way the data file
	// in place is complete.
	if err := db.openEnv(); err != nil {
		db.broken = fmt.Errorf("%w: %w", ErrBroken, err)
		return errors.Join(renameErr, db.broken)
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
	if err := db.env.CopyFDFlag(f.Fd(), mdb.CopyCompact); err != nil {
		f.Close()
		return wrap("compacting copy", err)
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

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
