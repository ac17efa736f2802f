// Package guard turns use-after-Close of an engine into ErrClosed instead
// of a crash inside a C library, and refuses to close an engine while its
// iterators are open. Every backend embeds one Guard.
package guard

import (
	"sync"
	"sync/atomic"

	"github.com/tsbench/storage/engine"
)

// Guard tracks whether an engine is open and how many iterators it has.
// Operations hold a read lock for their duration, so Close (a write lock)
// waits for operations in flight rather than freeing memory under them.
type Guard struct {
	mu     sync.RWMutex
	closed bool
	iters  atomic.Int64
}

// Enter starts an operation; it returns engine.ErrClosed once closed.
// A nil error must be paired with Exit.
func (g *Guard) Enter() error {
	g.mu.RLock()
	if g.closed {
		g.mu.RUnlock()
		return engine.ErrClosed
	}
	return nil
}

// Exit ends an operation started with Enter.
func (g *Guard) Exit() { g.mu.RUnlock() }

// IterOpened counts a new iterator; IterClosed uncounts it.
func (g *Guard) IterOpened() { g.iters.Add(1) }

// IterClosed uncounts an iterator counted by IterOpened.
func (g *Guard) IterClosed() { g.iters.Add(-1) }

// Close runs release once: it fails with engine.ErrClosed if already
// closed and engine.ErrOpenIterators while iterators are open.
func (g *Guard) Close(release func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return engine.ErrClosed
	}
	if g.iters.Load() > 0 {
		return engine.ErrOpenIterators
	}
	g.closed = true
	return release()
}
