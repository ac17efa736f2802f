package lmdb

import (
	"fmt"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

// batch buffers writes in Go and applies them in one write transaction at
// Commit: an LMDB write transaction is bound to the OS thread that began
// it, so it cannot stay open across the caller's Put calls.
type batch struct {
	db *DB
	writebuf.Buffer
}

// NewBatch returns an empty batch.
func (db *DB) NewBatch() engine.Batch { return &batch{db: db} }

// Commit applies the batch in one write transaction and empties it. On
// error nothing was applied and the batch keeps its operations.
func (b *batch) Commit() error {
	if b.Closed() {
		return engine.ErrClosed
	}
	db := b.db
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	err := b.Each(func(key, _ []byte, isDel bool) error {
		if !isDel && (len(key) == 0 || len(key) > db.maxKey) {
			return fmt.Errorf("%w: batch put of %d bytes", ErrKeySize, len(key))
		}
		return nil
	})
	if err != nil || b.Len() == 0 {
		return err
	}
	err = db.update("commit batch", func(txn *mdb.Txn) error {
		return b.Each(func(key, value []byte, isDel bool) error {
			switch {
			case !isDel:
				return txn.Put(db.dbi, key, value, 0)
			case len(key) > 0:
				return del(txn, db.dbi, key)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	b.Reset()
	return nil
}
