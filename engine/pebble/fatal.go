package pebble

import (
	"errors"
	"fmt"
	"log"
	"strings"
	"syscall"

	"github.com/tsbench/storage/engine"
)

// quietLogger drops Pebble's informational messages and shows its errors
// (background errors among them). Its Fatalf panics with a fatal instead
// of ending the process with os.Exit(1) as Pebble's default logger does,
// so that an application embedding the engine gets an error.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}

func (quietLogger) Errorf(format string, args ...any) { log.Printf("pebble: "+format, args...) }

func (quietLogger) Fatalf(format string, args ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, args...), "pebble: ")
	cause := errors.New("pebble: " + msg)
	if strings.Contains(msg, syscall.ENOSPC.Error()) {
		cause = fmt.Errorf("%w: %w", engine.ErrNoSpace, cause)
	}
	panic(fatal{cause})
}

// fatal is what Pebble panics with through quietLogger.Fatalf: it cannot
// go on, most often because a commit or a MANIFEST write failed on a full
// disk.
type fatal struct{ err error }

// stop is deferred by every call that writes through Pebble. It turns a
// panic of Pebble's fatal path, or one of its raw panics over a full disk,
// into an error wrapping engine.ErrBroken (and engine.ErrNoSpace for a
// full disk), and marks db stopped: Pebble panicked holding its commit
// mutex, so any further call into it would wait forever. engine.Open's
// wrapper makes none after that error; Close sees stopped. Other panics
// are not Pebble's failure to write and go on. A fatal error on one of
// Pebble's background goroutines (a flush or compaction) still ends the
// process, as a panic, since no call of ours is there to recover it.
func (db *DB) stop(err *error) {
	r := recover()
	if r == nil {
		return
	}
	var cause error
	switch v := r.(type) {
	case fatal:
		cause = v.err
	case error:
		if !errors.Is(v, syscall.ENOSPC) {
			panic(r)
		}
		cause = fmt.Errorf("%w: pebble: %w", engine.ErrNoSpace, v)
	default:
		panic(r)
	}
	db.stopped.Store(true)
	*err = fmt.Errorf("%w (pebble stopped after a fatal error: %w; free the space and open the store in a new process)", engine.ErrBroken, cause)
}
