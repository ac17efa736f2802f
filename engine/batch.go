package engine

// batch is the Batch of an engine from Open. It counts operations and
// bytes itself, so that Len and Size mean the same for every engine, and
// holds back a put of a key the engine cannot store, making Commit fail
// before the backend sees it.
type batch struct {
	h *handle
	// b is the backend's batch; nil when the engine was closed before it
	// was needed, or after a Reset of a backend batch without Reset.
	b      BackendBatch
	n      int
	size   int
	err    error // the first put of a key the engine cannot store
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
		if b.err == nil {
			b.err = b.h.refuse("batch put", key)
		}
		return
	}
	if bb := b.backend(); bb != nil {
		bb.Put(key, value)
	}
}

// Delete of a key the engine cannot store is counted but not passed on:
// there is nothing to delete.
func (b *batch) Delete(key []byte) {
	if b.closed {
		return
	}
	b.n++
	b.size += len(key)
	if !b.h.lim.fits(key) {
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
func (b *batch) Commit() error {
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
		if err := b.b.Commit(); err != nil {
			return b.h.latch(err)
		}
	}
	b.n, b.size = 0, 0
	return nil
}

// Close also releases the backend's batch after the engine's Close, as
// the backend contract allows.
func (b *batch) Close() error {
	if b.closed {
		return ErrClosed
	}
	b.closed = true
	b.n, b.size, b.err = 0, 0, nil
	if b.b == nil {
		return nil
	}
	return b.b.Close()
}
