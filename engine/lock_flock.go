//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package engine

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f without waiting, or returns
// ErrLocked. flock locks belong to an open file, not a process, so a
// second open of the same file in this process conflicts too; closing f
// releases it.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return ErrLocked
	}
	return err
}
