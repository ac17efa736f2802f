package lmdb

import (
	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

// NewBatch returns an empty batch. It buffers writes in Go and applies
// them in one write transaction at Commit: an LMDB write transaction is
// bound to the OS thread that began it, so it cannot stay open across the
// caller's Put calls.
func (db *DB) NewBatch() engine.Batch {
	return writebuf.NewBatch(
		func(fn func(*mdb.Txn) error) error { return db.update("commit batch", fn) },
		func(txn *mdb.Txn, key, value []byte) error { return txn.Put(db.dbi, key, value, 0) },
		func(txn *mdb.Txn, key []byte) error { return del(txn, db.dbi, key) })
}
