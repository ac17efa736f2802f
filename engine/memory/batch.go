package memory

import (
	"bytes"

	"github.com/tsbench/storage/engine"
)

var _ engine.Batch = (*batch)(nil)

// batch collects copies of its writes and applies them under one lock.
type batch struct {
	db     *DB
	ops    []op
	size   int
	closed bool
}

func (b *batch) Put(key, value []byte) {
	if !b.closed {
		b.ops = append(b.ops, op{key: bytes.Clone(key), value: bytes.Clone(value)})
		b.size += len(key) + len(value)
	}
}

func (b *batch) Delete(key []byte) {
	if !b.closed {
		b.ops = append(b.ops, op{key: bytes.Clone(key), del: true})
		b.size += len(key)
	}
}

func (b *batch) Len() int { return len(b.ops) }

func (b *batch) Size() int { return b.size }

// Reset implements engine.Batch.
func (b *batch) Reset() {
	if !b.closed {
		clear(b.ops)
		b.ops, b.size = b.ops[:0], 0
	}
}

// Commit applies the batch; on failure (a closed DB) it is unchanged.
func (b *batch) Commit() error {
	if b.closed {
		return engine.ErrClosed
	}
	if err := b.db.apply(b.ops); err != nil {
		return err
	}
	// The DB now owns the ops' bytes; only the slice itself is reused.
	b.Reset()
	return nil
}

func (b *batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.ops, b.size = nil, 0
	return nil
}
