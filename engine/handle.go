package engine

import (
	"fmt"
	"os"
	"sync"
)

// handle is the Engine that Open returns. It wraps the backend once, as
// database/sql wraps a driver, and owns what the contract promises beyond
// reading and writing: the rules on Close (see life), a backend that
// broke (every result of a call into the backend goes through h.latch),
// the key domain of the driver's Limits, the directory lock, and the
// fallbacks of the optional interfaces. Backends are left with their own
// work.
type handle struct {
	be       Backend
	newBatch func() BackendBatch
	name     string
	opts     Options // with defaults, for a Checkpoint made by copying
	lim      Limits
	marker   *os.File // locked until Close

	// life's open counts the iterators and snapshots not yet closed, and
	// it latches the error of a backend that broke.
	life
	// compactMu is held shared while an iterator or snapshot is created,
	// and exclusively by Compact on an ExclusiveCompact engine, so that
	// none appears while it runs. Each checks the latch again once it
	// holds compactMu: a call that waited for a Compact that broke the
	// backend must not go into it.
	compactMu sync.RWMutex
}

// wrap returns h as an Engine that also implements Flusher and
// Backgrounder exactly when the backend does: callers find them by type
// assertion, and an engine without them falls back to something else
// (workload watches the directory), which a wrapper that always had them
// would hide.
func wrap(h *handle) Engine {
	_, f := h.be.(Flusher)
	_, b := h.be.(Backgrounder)
	switch {
	case f && b:
		return struct {
			*handle
			flusher
			backgrounder
		}{h, flusher{h}, backgrounder{h}}
	case f:
		return struct {
			*handle
			flusher
		}{h, flusher{h}}
	case b:
		return struct {
			*handle
			backgrounder
		}{h, backgrounder{h}}
	}
	return h
}

type flusher struct{ h *handle }

func (f flusher) Flush() error {
	if err := f.h.enter(); err != nil {
		return err
	}
	defer f.h.exit()
	return f.h.latch(f.h.be.(Flusher).Flush())
}

type backgrounder struct{ h *handle }

func (b backgrounder) Busy() (bool, error) {
	if err := b.h.enter(); err != nil {
		return false, err
	}
	defer b.h.exit()
	busy, err := b.h.be.(Backgrounder).Busy()
	return busy, b.h.latch(err)
}

// Limits reports the driver's Limits (see LimitsOf).
func (h *handle) Limits() Limits { return h.lim }

func (h *handle) Get(key []byte) ([]byte, error) {
	if err := h.enter(); err != nil {
		return nil, err
	}
	defer h.exit()
	if !h.lim.fits(key) {
		return nil, ErrNotFound // it cannot have been stored
	}
	v, err := h.be.Get(key)
	return v, h.latch(err)
}

func (h *handle) Put(key, value []byte) error {
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	if !h.lim.fits(key) {
		return h.refuse("put", key)
	}
	if err := h.lim.checkValue(len(key), len(value)); err != nil {
		return fmt.Errorf("engine: %s: put: %w", h.name, err)
	}
	return h.latch(h.be.Put(key, value))
}

// refuse returns the error for a write of a key outside the engine's
// Limits.
func (h *handle) refuse(op string, key []byte) error {
	return fmt.Errorf("engine: %s: %s: %w", h.name, op, h.lim.CheckKey(key))
}

func (h *handle) Delete(key []byte) error {
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	if !h.lim.fits(key) {
		return nil // it cannot have been stored
	}
	return h.latch(h.be.Delete(key))
}

// DeleteRange refuses an inverted range and skips an empty one, so that
// no backend sees either.
func (h *handle) DeleteRange(start, end []byte) error {
	return h.onRange("DeleteRange", start, end, func() error {
		if err := h.lim.CheckOrdered(start, end); err != nil {
			return h.invalid("DeleteRange", err)
		}
		return h.latch(h.be.DeleteRange(start, end))
	})
}

// onRange runs call, the call op on [start, end), as a call on h: it
// refuses an inverted range (CheckRange) and does nothing for an empty
// one, so that no backend sees either.
func (h *handle) onRange(op string, start, end []byte, call func() error) error {
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	if err := CheckRange(start, end); err != nil {
		return h.invalid(op, err)
	}
	if emptyRange(start, end) {
		return nil
	}
	return call()
}

// invalid returns the error for a call refused by CheckRange.
func (h *handle) invalid(op string, err error) error {
	return fmt.Errorf("engine: %s: %s: %w", h.name, op, err)
}

func (h *handle) NewIterator(opts IterOptions) (Iterator, error) {
	if err := h.enter(); err != nil {
		return nil, err
	}
	defer h.exit()
	if err := CheckRange(opts.LowerBound, opts.UpperBound); err != nil {
		return nil, h.invalid("NewIterator", err)
	}
	if err := h.lim.CheckOrdered(opts.LowerBound, opts.UpperBound); err != nil {
		return nil, h.invalid("NewIterator", err)
	}
	h.compactMu.RLock()
	defer h.compactMu.RUnlock()
	if err := h.failure(); err != nil {
		return nil, err
	}
	it, err := h.be.NewIterator(opts)
	if err != nil {
		return nil, h.latch(err)
	}
	return wrapIter(it, h.be, &h.open, h), nil
}

// Compact refuses to run beside open iterators on an ExclusiveCompact
// engine, so that every such engine fails alike, and holds new ones off
// while it runs. An inverted range is refused and an empty one skipped
// first, as in DeleteRange.
func (h *handle) Compact(start, end []byte) error {
	return h.onRange("Compact", start, end, func() error {
		if h.lim.ExclusiveCompact {
			h.compactMu.Lock()
			defer h.compactMu.Unlock()
			if err := h.failure(); err != nil {
				return err
			}
			if n := h.open.Load(); n > 0 {
				return fmt.Errorf("%w: %s compacts only with none open, and %d are (see Limits.ExclusiveCompact)", ErrOpenIterators, h.name, n)
			}
		}
		return h.latch(h.be.Compact(start, end))
	})
}

// Close closes the backend and then releases the directory, so that a
// new Open of it never runs beside the old backend. It does so on a
// broken backend too.
func (h *handle) Close() error {
	return h.shut(func() error {
		err := h.be.Close()
		h.marker.Close()
		return err
	})
}
