package powercut

import "errors"

var (
	// ErrUnavailable means this process cannot serve a FUSE file system:
	// /dev/fuse is missing or mounting is not permitted. The wrapping error
	// names which.
	ErrUnavailable = errors.New("powercut: FUSE unavailable")
	// ErrBusy means the backing store is mounted already, or Unmount found
	// files still open on the mount.
	ErrBusy = errors.New("powercut: busy")
	// ErrNotStore means the backing directory holds files that are not a
	// powercut store, or a store whose tree.json does not parse.
	ErrNotStore = errors.New("powercut: not a powercut store")
	// ErrClosed means Cut or Unmount already ended the mount.
	ErrClosed = errors.New("powercut: mount already cut or unmounted")
)
