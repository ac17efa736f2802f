package engine

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// life is what an engine from Open, and each of its snapshots, keeps to
// honour the contract on Close whatever the backend: calls hold mu shared
// for their duration and Close holds it exclusively, so that Close waits
// for calls in flight rather than free what they use; open counts the
// iterators (and snapshots) that must be closed first.
type life struct {
	mu     sync.RWMutex
	closed bool
	open   atomic.Int64
}

// enter starts a call, or returns ErrClosed. A nil error must be paired
// with exit.
func (l *life) enter() error {
	l.mu.RLock()
	if l.closed {
		return l.refuse()
	}
	return nil
}

// refuse ends a call that found l closed; it is apart from enter so that
// enter stays small enough to inline.
func (l *life) refuse() error {
	l.mu.RUnlock()
	return ErrClosed
}

func (l *life) exit() { l.mu.RUnlock() }

// shut runs release once no call is in flight, unless l is closed already
// (ErrClosed) or has open iterators (ErrOpenIterators, and l stays open).
// l counts as closed even if release fails: it cannot be tried again.
func (l *life) shut(release func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	if n := l.open.Load(); n > 0 {
		return fmt.Errorf("%w (%d open)", ErrOpenIterators, n)
	}
	l.closed = true
	return release()
}
