//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package engine

import (
	"os"
	"syscall"
	"time"
)

// lockWait is how long lockFile waits for a lock held elsewhere. A
// child process that this one starts holds a copy of every descriptor
// from its fork until its exec closes the close-on-exec ones, and with
// it any lock of them: a directory closed while another goroutine starts
// a process (a node, a probe, an engine's child) looks in use for that
// moment. Go's fork cannot shut it: Linux lets the parent go on before
// the child has closed them.
const lockWait = 500 * time.Millisecond

// lockFile takes an exclusive lock on f, waiting up to lockWait, or
// returns ErrLocked. flock locks belong to an open file, not a process,
// so a second open of the same file in this process conflicts too;
// closing f releases it.
func lockFile(f *os.File) error {
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EWOULDBLOCK {
			return err
		}
		if time.Now().After(deadline) {
			return ErrLocked
		}
		time.Sleep(5 * time.Millisecond)
	}
}
