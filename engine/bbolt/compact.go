package bbolt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
)

// compactSuffix names the copy Compact writes beside data.db.
const compactSuffix = ".compact"

// compactTxSize bounds the bytes copied per transaction during Compact, so
// copying a large file keeps memory flat.
const compactTxSize = 64 << 20

// Compact implements engine.Engine. bbolt never shrinks its file: freed
// pages are only reused. Compact therefore copies every live key into a
// new, densely packed file beside the old one, fsyncs it and renames it
// over data.db, whatever the bounds. It needs no open iterators, since
// their transactions read the old file, and it blocks all other calls
// while it runs. The disk briefly holds both files.
func (d *DB) Compact(start, end []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.db == nil {
		return ErrBroken
	}
	if d.iters.Load() > 0 {
		return fmt.Errorf("%w: bbolt compaction replaces the file they read", engine.ErrOpenIterators)
	}
	tmp := d.path + compactSuffix
	if err := d.copyTo(tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("bbolt: compact: %w", err)
	}
	if err := d.db.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("bbolt: compact: %w", err)
	}
	d.db = nil
	renameErr := os.Rename(tmp, d.path)
	if renameErr == nil {
		renameErr = syncDir(filepath.Dir(d.path))
	} else {
		os.Remove(tmp)
	}
	// Reopen whichever file is now data.db: the copy, or the original if
	// the rename failed.
	db, err := d.open()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBroken, errors.Join(renameErr, err))
	}
	d.db = db
	if renameErr != nil {
		return fmt.Errorf("bbolt: compact: %w", renameErr)
	}
	return nil
}

// copyTo writes a compacted copy of the open file to path and fsyncs it.
func (d *DB) copyTo(path string) error {
	o := *d.bopts
	o.NoSync = true // one fsync at the end instead of one per transaction
	dst, err := bolt.Open(path, 0o644, &o)
	if err != nil {
		return err
	}
	err = bolt.Compact(dst, d.db, compactTxSize)
	if err == nil {
		err = dst.Sync()
	}
	return errors.Join(err, dst.Close())
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}
