package engine

import (
	"context"
	"fmt"
)

// batch is the Batch of an engine from Open. It counts operations and
// bytes itself, so that Len and Size mean the same for every engine, and
// holds back a put of a key the engine cannot store, and every operation
// from the one that takes the batch past the engine's Limits on values
// and batches, making Commit fail before the backend sees them: the
// backend's batch never grows beyond what the engine takes.
type batch struct {
	h *handle
	// b is the backend's batch; nil when the engine was closed before it
	// was needed, or after a Reset of a backend batch without Reset.
	b      BackendBatch
	n      int
	size   int
	err    error // the first operation held back, by the engine's Limits
	closed bool
}

func (h *handle) NewBatch() Batch {
	b := &batch{h: h}
	b.renew()
	return b
}

// backend returns the backend's batch, making it if needed, or nil once
// the engine is closed (Commit then reports ErrClosed).
func (b *batch) backend() BackendBatch {
	if b.b == nil {
		b.renew()
	}
	return b.b
}

// renew makes the backend's batch, unless the engine is closed.
func (b *batch) renew() {
	if b.h.enter() == nil {
		b.b = b.h.newBatch()
		b.h.exit()
	}
}

func (b *batch) Put(key, value []byte) {
	if b.closed {
		return
	}
	b.n++
	b.size += len(key) + len(value)
	if !b.h.lim.fits(key) {
		b.holdBack(b.h.refuse("batch put", key))
		return
	}
	if err := b.h.lim.checkValue(len(key), len(value)); err != nil {
		b.holdBack(fmt.Errorf("engine: %s: batch put: %w", b.h.name, err))
		return
	}
	if b.overflows() {
		return
	}
	if bb := b.backend(); bb != nil {
		bb.Put(key, value)
	}
}

// holdBack records err as the reason Commit fails, unless one is already.
func (b *batch) holdBack(err error) {
	if b.err == nil {
		b.err = err
	}
}

// overflows reports whether b, with the operation just counted, is past
// the engine's batch limits; that operation and every later one is held
// back, so that the backend's batch stays within them.
func (b *batch) overflows() bool {
	if b.err != nil {
		return true
	}
	if err := b.h.lim.checkBatch(b.n, b.size); err != nil {
		b.err = fmt.Errorf("engine: %s: batch: %w", b.h.name, err)
		return true
	}
	return false
}

// Delete of a key the engine cannot store is counted but not passed on:
// there is nothing to delete.
func (b *batch) Delete(key []byte) {
	if b.closed {
		return
	}
	b.n++
	b.size += len(key)
	if !b.h.lim.fits(key) || b.overflows() {
		return
	}
	if bb := b.backend(); bb != nil {
		bb.Delete(key)
	}
}

func (b *batch) Len() int  { return b.n }
func (b *batch) Size() int { return b.size }

// Reset uses the backend's Reset, or else closes its batch for a new one
// made at the next write.
func (b *batch) Reset() {
	if b.closed {
		return
	}
	b.n, b.size, b.err = 0, 0, nil
	if r, ok := b.b.(interface{ Reset() }); ok {
		r.Reset()
	} else if b.b != nil {
		b.b.Close()
		b.b = nil
	}
}

// Commit leaves the batch as it was when it fails, the rule in Batch's
// documentation; a backend that empties its batch anyway is caught by
// enginetest.
func (b *batch) Commit() error { return b.CommitContext(context.Background()) }

// CommitContext is Commit giving up when ctx is done (CommitContext, the
// package function): through the backend's batch where it can wait on a
// network (ContextCommitter), else by checking ctx before the commit, which
// cannot be interrupted once it started.
func (b *batch) CommitContext(ctx context.Context) error {
	if b.closed {
		return ErrClosed
	}
	if err := b.h.enter(); err != nil {
		return err
	}
	defer b.h.exit()
	switch {
	case b.err != nil:
		return b.err
	case b.n == 0:
		return nil
	case b.b != nil:
		var err error
		if cc, ok := b.b.(ContextCommitter); ok {
			err = cc.CommitContext(ctx)
		} else if err = ctx.Err(); err == nil {
			err = b.b.Commit()
		}
		if err != nil {
			return b.h.latch(err)
		}
	}
	b.n, b.size = 0, 0
	return nil
}

// ContextCommitter is a backend batch whose Commit can wait on a network
// (etcd's): CommitContext gives up when ctx is done, with an error
// wrapping ctx.Err(), leaving the batch as it was.
type ContextCommitter interface {
	CommitContext(ctx context.Context) error
}

// CommitContext commits b as Commit does, giving up when ctx is done, with
// an error wrapping ctx.Err() and the batch left as it was, so it can be
// retried. For a batch of engine.Open's, a backend that can wait on a
// network (etcd) honours ctx while it commits; the others check it before
// they start. Any other Batch is committed after the same check.
func CommitContext(ctx context.Context, b Batch) error {
	if cb, ok := b.(interface {
		CommitContext(context.Context) error
	}); ok {
		return cb.CommitContext(ctx)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.Commit()
}

// Close also releases the backend's batch after the engine's Close, as
// the backend contract allows.
func (b *batch) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.n, b.size, b.err = 0, 0, nil
	if b.b == nil {
		return nil
	}
	return b.b.Close()
}
