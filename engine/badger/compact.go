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

// Compact implements engine.Backend for the whole database: Badger cannot
// compact a key range, so the bounds are ignored. Deletes are tombstones
// that first sit in the memtable, whose write-ahead file keeps the deleted
// values on disk, and Badger flushes a memtable on demand only when it
// closes, so Compact
//
//  1. closes and reopens Badger: closing flushes the memtable to a level-0
//     table and, with CompactL0OnClose, merges level 0 into the tree;
//  2. runs Flatten, which merges every level into the last, where
//     tombstones and the versions they hide are dropped;
//  3. runs value-log GC until it finds nothing to rewrite, for values at
//     or above value_threshold, which live in the value log.
//
// Iterators and snapshots hold transactions of the database it closes, so
// the driver's Limits say ExclusiveCompact; other calls wait while it runs.
func (d *DB) Compact(start, end []byte) error {
	return d.db.Exclusive(func(db **badgerv4.DB) error {
		// Compactions keep every version newer than the oldest read still
		// registered, and a write transaction registers the read just
		// before its own commit, so the last commit's tombstones would
		// survive the merge on close. A read transaction now moves that
		// mark past them.
		(*db).NewTransaction(false).Discard()
		if err := (*db).Close(); err != nil {
			return fmt.Errorf("%w: badger: compact: close: %w", engine.ErrBroken, kinds.Wrap(err))
		}
		reopened, err := badgerv4.Open(d.opts)
		if err != nil {
			return fmt.Errorf("%w: badger: compact: open: %w", engine.ErrBroken, kinds.Wrap(err))
		}
		*db = reopened
		if err := reopened.Flatten(flattenWorkers); err != nil {
			return fmt.Errorf("badger: compact: %w", kinds.Wrap(err))
		}
		// ErrNoRewrite ends the loop: nothing left worth rewriting.
		for reopened.RunValueLogGC(gcDiscardRatio) == nil {
		}
		return nil
	})
}
