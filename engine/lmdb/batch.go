package lmdb

import (
	"fmt"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine"
)

// batch buffers writes in Go and applies them in one write transaction at
// Commit: an LMDB write transaction is bound to the OS thread that began
// it, so it cannot stay open across the caller's Put calls.
type batch struct {
	db *DB
	// buf holds every key and value back to back, in the order of ops,
	// so that recording an operation allocates nothing once buf is grown.
	buf    []byte
	ops    []op
	closed bool
}

// op is one buffered write; its key (and value, for a put) are the next
// bytes of batch.buf.
type op struct {
	del        bool
	klen, vlen int
}

// NewBatch returns an empty batch.
func (db *DB) NewBatch() engine.Batch { return &batch{db: db} }

// Put and Delete on a closed batch are dropped; Commit reports the close.
func (b *batch) Put(key, value []byte) {
	if b.closed {
		return
	}
	b.buf = append(append(b.buf, key...), value...)
	b.ops = append(b.ops, op{klen: len(key), vlen: len(value)})
}

func (b *batch) Delete(key []byte) {
	if b.closed {
		return
	}
	b.buf = append(b.buf, key...)
	b.ops = append(b.ops, op{del: true, klen: len(key)})
}

func (b *batch) Len() int { return len(b.ops) }

// Commit applies the batch in one write transaction and empties it. On
// error nothing was applied and the batch keeps its operations.
func (b *batch) Commit() error {
	if b.closed {
		return engine.ErrClosed
	}
	db := b.db
	if err := db.guard.Enter(); err != nil {
		return err
	}
	defer db.guard.Exit()
	for _, o := range b.ops {
		if !o.del && (o.klen == 0 || o.klen > db.maxKey) {
			return fmt.Errorf("%w: batch put of %d bytes", ErrKeySize, o.klen)
		}
	}
	if len(b.ops) == 0 {
		return nil
	}
	err := db.update("commit batch", func(txn *mdb.Txn) error {
		off := 0
		for _, o := range b.ops {
			key := b.buf[off : off+o.klen]
			off += o.klen
			if o.del {
				if len(key) > 0 {
					if err := del(txn, db.dbi, key); err != nil {
						return err
					}
				}
				continue
			}
			if err := txn.Put(db.dbi, key, b.buf[off:off+o.vlen], 0); err != nil {
				return err
			}
			off += o.vlen
		}
		return nil
	})
	if err != nil {
		return err
	}
	b.buf, b.ops = b.buf[:0], b.ops[:0]
	return nil
}

// Close drops the batch's operations and its buffers.
func (b *batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.buf, b.ops = nil, nil
	return nil
}
