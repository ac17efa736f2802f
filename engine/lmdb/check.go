package lmdb

import (
	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine"
)

var _ engine.Checker = (*DB)(nil)

// Check walks every page of the tree with a cursor in one read
// transaction (engine.Checker). LMDB keeps no checksums, so damage inside
// a value goes unseen; what the walk finds is a page that is not what its
// parent says it is (MDB_CORRUPTED, MDB_PAGE_NOTFOUND), which wraps
// engine.ErrCorrupt. Open has already checked the file's length against
// its meta pages.
func (db *DB) Check() error {
	txn, err := db.beginRead()
	if err != nil {
		return err
	}
	defer db.endRead(txn)
	cur, err := txn.OpenCursor(db.dbi)
	if err != nil {
		return wrap("check", err)
	}
	defer cur.Close()
	for {
		_, _, err := cur.Get(nil, nil, mdb.Next)
		if mdb.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return wrap("check", err)
		}
	}
}
