package etcd

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

var _ engine.ContextCommitter = (*batch)(nil)

// batch buffers its writes in Go and commits them as one etcd
// transaction: one Raft entry, applied all or nothing.
type batch struct {
	d *DB
	writebuf.Buffer
}

// Commit implements engine.BackendBatch. etcd refuses a transaction that writes
// a key twice, so only the last write of each key is sent; within one
// atomic commit the result is the same. A batch larger than the cluster
// takes fails whole with ErrTooLarge, keeping its writes: it is never
// split, which would give up its atomicity.
func (b *batch) Commit() error { return b.CommitContext(context.Background()) }

// CommitContext implements engine.ContextCommitter: Commit, giving up
// when ctx is done, the batch kept.
func (b *batch) CommitContext(ctx context.Context) error {
	if b.Len() == 0 {
		return nil
	}
	at := make(map[string]int, b.Len())
	ops := make([]clientv3.Op, 0, b.Len())
	b.Each(func(key, value []byte, del bool) error {
		k := b.d.key(key)
		op := clientv3.OpPut(k, string(value))
		if del {
			op = clientv3.OpDelete(k)
		}
		if i, ok := at[k]; ok {
			ops[i] = op
		} else {
			at[k] = len(ops)
			ops = append(ops, op)
		}
		return nil
	})
	ctx, cancel := b.d.ctxFrom(ctx)
	defer cancel()
	if _, err := b.d.cli.Txn(ctx).Then(ops...).Commit(); err != nil {
		return b.d.wrap("commit batch", err)
	}
	b.Reset()
	return nil
}
