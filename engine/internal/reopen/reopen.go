// Package reopen lets a backend close and reopen its library's handle
// during maintenance (bbolt's and Badger's Compact) while other calls
// run: calls hold the handle shared for their duration, and the
// maintenance holds it exclusively.
//
// A reopen that fails loses the handle, and the maintenance returns an
// error wrapping engine.ErrBroken. engine.Open's wrapper then refuses
// every later call but Close with that error itself, and runs no second
// Compact of an ExclusiveCompact engine beside the first, so the Handle
// keeps no state for them; it only keeps the calls that were already
// waiting for it, which the wrapper let through before the failure, from
// using the closed handle.
package reopen

import (
	"errors"
	"sync"

	"github.com/tsbench/storage/engine"
)

// Handle holds a library handle of type T. The zero value holds the zero
// T; Set gives it the handle opened first.
type Handle[T any] struct {
	mu sync.RWMutex
	v  T
	// lost is the error, wrapping engine.ErrBroken, of the reopen that
	// failed and left v closed: the calls that were waiting for mu
	// return it, the same error as the maintenance's.
	lost error
	// closed is set by Close, which a test of the bare backend may call
	// twice.
	closed bool
}

// Set gives h the handle v, before any call uses it.
func (h *Handle[T]) Set(v T) { h.v = v }

// Use runs fn with the handle held shared, for a call that needs it only
// while fn runs.
func (h *Handle[T]) Use(fn func(v T) error) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.lost != nil {
		return h.lost // this call waited for the reopen that failed
	}
	return fn(h.v)
}

// Exclusive runs fn with no call in flight and none starting. fn may
// replace *v, the handle; an error it returns that wraps engine.ErrBroken
// says the handle is lost.
func (h *Handle[T]) Exclusive(fn func(v *T) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	err := fn(&h.v)
	if errors.Is(err, engine.ErrBroken) {
		h.lost = err
	}
	return err
}

// Close runs release on the handle once no call is in flight; a lost or
// closed handle has nothing left to release.
func (h *Handle[T]) Close(release func(T) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lost != nil || h.closed {
		return nil
	}
	h.closed = true
	return release(h.v)
}
