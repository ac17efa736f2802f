package engine

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// life is what an engine from Open, and each of its snapshots, keeps to
// honour the contract on Close and on a broken backend whatever the
// backend: calls hold mu shared for their duration and Close holds it
// exclusively, so that Close waits for calls in flight rather than free
// what they use; open counts the iterators (and snapshots) that must be
// closed first; an engine's broken latch (see latch) refuses every call
// once a call into the backend failed with ErrBroken.
type life struct {
	mu sync.RWMutex
	// stopped is nonzero once l refuses calls: stoppedClosed, set under
	// mu held exclusively, or stoppedBroken, set by latch while calls are
	// in flight. It is one word so that enter reads one.
	stopped atomic.Uint32
	open    atomic.Int64
	// broken is the error latch latched, once stoppedBroken is set.
	broken atomic.Pointer[error]
}

const (
	stoppedClosed = 1 << iota
	stoppedBroken
)

// enter starts a call, or returns ErrClosed, or the error l latched. A
// nil error must be paired with exit.
func (l *life) enter() error {
	l.mu.RLock()
	if l.stopped.Load() != 0 {
		return l.refuse()
	}
	return nil
}

// refuse ends a call that found l stopped; it is apart from enter to keep
// enter's path short. Closed comes first: calls after Close return
// ErrClosed, as the contract says.
func (l *life) refuse() error {
	l.mu.RUnlock()
	if l.closed() {
		return ErrClosed
	}
	return l.failure()
}

func (l *life) exit() { l.mu.RUnlock() }

// closed reports whether l was closed.
func (l *life) closed() bool { return l.stopped.Load()&stoppedClosed != 0 }

// shut runs release once no call is in flight, unless l is closed already
// (nil: a second Close does nothing, as database/sql's DB.Close) or has
// open iterators (ErrOpenIterators, and l stays open). l counts as closed
// even if release fails: it cannot be tried again, and that Close
// reported the error. A broken engine is closed as any other: Close is
// the one call a broken backend still takes.
func (l *life) shut(release func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed() {
		return nil
	}
	if n := l.open.Load(); n > 0 {
		return fmt.Errorf("%w (%d open)", ErrOpenIterators, n)
	}
	l.stopped.Or(stoppedClosed)
	return release()
}

// latch returns err, a call's result from the backend of an engine whose
// life l is, after latching it if it wraps ErrBroken and none was latched
// before, as database/sql drops a connection that returned
// driver.ErrBadConn: from then on every call on the engine, its batches
// and its snapshots fails with that error before it reaches the backend,
// so that no backend has to remember that it broke, and none is used
// after it said it cannot go on. Close still runs. Most results are nil
// or ErrNotFound, which skip the walk of the error's chain.
func (l *life) latch(err error) error {
	if err != nil && err != ErrNotFound {
		l.hold(err)
	}
	return err
}

// hold latches err if it wraps ErrBroken and no error was latched yet.
// The error is in place before the bit that makes enter look for it.
func (l *life) hold(err error) {
	if errors.Is(err, ErrBroken) {
		p := new(error)
		*p = err
		if l.broken.CompareAndSwap(nil, p) {
			l.stopped.Or(stoppedBroken)
		}
	}
}

// failure returns the error l latched, or nil.
func (l *life) failure() error {
	if p := l.broken.Load(); p != nil {
		return *p
	}
	return nil
}
