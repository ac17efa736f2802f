package memory

import (
	"bytes"

	"github.com/tsbench/storage/engine"
)

// batch collects copies of its writes and applies them under one lock.
type batch struct {
	db     *DB
	ops    []op
	closed bool
}

func (b *batch) Put(key, value []byte) {
	if !b.closed {
		b.ops = append(b.ops, op{key: bytes.Clone(key), value: bytes.Clone(value)})
	}
}

func (b *batch) Delete(key []byte) {
	if !b.closed {
		b.ops = append(b.ops, op{key: bytes.Clone(key), del: true})
	}
}

func (b *batch) Len() int { return len(b.ops) }

func (b *batch) Commit() error {
	if b.closed {
		return engine.ErrClosed
	}
	if err := b.db.apply(b.ops); err != nil {
		return err
	}
	// The DB now owns the ops' bytes; only the slice itself is reused.
	clear(b.ops)
	b.ops = b.ops[:0]
	return nil
}

func (b *batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.ops = nil
	return nil
}
