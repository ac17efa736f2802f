package badger

import (
	"fmt"

	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
)

const (
	// flattenWorkers is how many goroutines Flatten compacts with.
	flattenWorkers = 2
	// gcDiscardRatio is the share of stale data that makes value-log GC
	// rewrite a file.
	gcDiscardRatio = 0.5
)

// Compact implements engine.Engine for the whole database: Badger cannot
// compact a key range, so the bounds are ignored. Deletes are tombstones
// that first sit in the memtable, whose write-ahead file keeps the deleted
// values on disk, so Compact
//
//  1. closes and reopens Badger: closing flushes the memtable to a level-0
//     table and, with CompactL0OnClose, merges level 0 into the tree;
//  2. runs Flatten, which merges every level into the last, where
//     tombstones and the versions they hide are dropped;
//  3. runs value-log GC until it finds nothing to rewrite, for values at
//     or above value_threshold, which live in the value log.
//
// It fails with engine.ErrOpenIterators while iterators are open, since
// their transactions belong to the handle it closes, and blocks all other
// calls while it runs.
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
		return fmt.Errorf("%w: badger compaction closes the database they read", engine.ErrOpenIterators)
	}
	// Compactions keep every version newer than the oldest read still
	// registered, and a write transaction registers the read just before
	// its own commit, so the last commit's tombstones would survive the
	// merge on close. A read transaction now moves that mark past them.
	d.db.NewTransaction(false).Discard()
	if err := d.reopen(); err != nil {
		return err
	}
	if err := d.db.Flatten(flattenWorkers); err != nil {
		return fmt.Errorf("badger: compact: %w", err)
	}
	for {
		// ErrNoRewrite ends the loop: nothing left worth rewriting.
		if err := d.db.RunValueLogGC(gcDiscardRatio); err != nil {
			break
		}
	}
	return nil
}

// reopen closes Badger and opens it again. The caller holds mu for
// writing.
func (d *DB) reopen() error {
	err := d.db.Close()
	d.db = nil
	if err != nil {
		return fmt.Errorf("%w: close: %w", ErrBroken, err)
	}
	db, err := badgerv4.Open(d.opts)
	if err != nil {
		return fmt.Errorf("%w: open: %w", ErrBroken, err)
	}
	d.db = db
	return nil
}
