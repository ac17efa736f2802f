package pebble

import (
	"errors"
	"fmt"
	"sync"
	"syscall"

	pebbledb "github.com/cockroachdb/pebble/v2"

	"github.com/tsbench/storage/engine"
)

// noSpace notes a flush or compaction that failed on a full disk. Pebble
// retries such work for ever, so a Flush or Compact waiting for it would
// never return (and, using CPU, never look stalled either): they give up
// with engine.ErrNoSpace once it is noted.
type noSpace struct {
	once sync.Once
	hit  chan struct{} // closed at the first failure
	err  error
}

func newNoSpace() *noSpace { return &noSpace{hit: make(chan struct{})} }

// listener notes background errors that are a full disk.
func (n *noSpace) listener() pebbledb.EventListener {
	return pebbledb.EventListener{
		BackgroundError: func(err error) {
			if errors.Is(err, syscall.ENOSPC) {
				n.once.Do(func() {
					n.err = fmt.Errorf("%w: pebble: %w", engine.ErrNoSpace, err)
					close(n.hit)
				})
			}
		},
	}
}

// wait runs f, which waits for Pebble's background work, and returns its
// error, or gives up when a full disk stops that work: then db is marked
// stopped, f is left to Pebble (it ends with the process), and the error
// wraps engine.ErrBroken, after which engine.Open's wrapper makes no call
// but Close.
func (db *DB) wait(f func() error) error {
	done := make(chan error, 1)
	panicked := make(chan any, 1)
	go func() {
		// A panic of Pebble's fatal path goes back to the caller, whose
		// deferred stop turns it into an error.
		defer func() {
			if r := recover(); r != nil {
				panicked <- r
			}
		}()
		done <- f()
	}()
	select {
	case err := <-done:
		return err
	case r := <-panicked:
		panic(r)
	case <-db.noSpace.hit:
		db.stopped.Store(true)
		return fmt.Errorf("%w (pebble cannot flush or compact: %w; free the space and open the store in a new process)", engine.ErrBroken, db.noSpace.err)
	}
}
