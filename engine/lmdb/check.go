package lmdb

// #include "binding.h"
import "C"

import "github.com/tsbench/storage/engine"

var _ engine.Checker = (*DB)(nil)

// Check walks every entry of the tree with a cursor in one read
// transaction (engine.Checker). LMDB keeps no checksums, so damage inside
// a value goes unseen; what the walk finds is a page that is not what its
// parent says it is (MDB_CORRUPTED, MDB_PAGE_NOTFOUND), which wraps
// engine.ErrCorrupt. Open has already checked the file's length against
// its meta pages.
func (db *DB) Check() error {
	txn, err := db.beginRead("check")
	if err != nil {
		return err
	}
	defer db.endRead(txn)
	return wrap("check", C.tsb_lmdb_check(txn, db.dbi))
}
