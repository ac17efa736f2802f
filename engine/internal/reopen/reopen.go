// Package reopen lets a backend close and reopen its library's handle
// during maintenance (bbolt's and Badger's Compact) while other calls
// run: calls hold the handle shared for their duration, the maintenance
// holds it exclusively, and a handle that could not be reopened makes
// every later call fail with engine.ErrBroken instead of using a closed
// one.
package reopen

import (
	"errors"
	"sync"

	"github.com/tsbench/storage/engine"
)

// Handle holds a library handle of type T. The zero value holds the zero
// T; Set gives it the handle opened first.
type Handle[T any] struct {
	mu     sync.RWMutex
	v      T
	broken error // wraps engine.ErrBroken once a reopen failed
}

// Set gives h the handle v, before any call uses it.
func (h *Handle[T]) Set(v T) { h.v = v }

// Acquire returns the handle for one call, held shared; a nil error must
// be paired with Release.
func (h *Handle[T]) Acquire() (T, error) {
	h.mu.RLock()
	if h.broken != nil {
		h.mu.RUnlock()
		var zero T
		return zero, h.broken
	}
	return h.v, nil
}

// Release ends a call that Acquire began.
func (h *Handle[T]) Release() { h.mu.RUnlock() }

// Exclusive runs fn with no call in flight and none starting. fn may
// replace *v, the handle; an error it returns that wraps engine.ErrBroken
// says the handle is lost, and every later call returns that error.
func (h *Handle[T]) Exclusive(fn func(v *T) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.broken != nil {
		return h.broken
	}
	err := fn(&h.v)
	if errors.Is(err, engine.ErrBroken) {
		h.broken = err
	}
	return err
}

// Close runs release on the handle once no call is in flight; a lost
// handle has nothing left to release.
func (h *Handle[T]) Close(release func(T) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.broken != nil {
		return nil
	}
	h.broken = engine.ErrClosed
	return release(h.v)
}

// Use runs fn with the handle held shared, for a call that needs it only
// while fn runs.
func (h *Handle[T]) Use(fn func(v T) error) error {
	v, err := h.Acquire()
	if err != nil {
		return err
	}
	defer h.Release()
	return fn(v)
}
