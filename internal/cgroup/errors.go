package cgroup

import "errors"

var (
	// ErrUnavailable means this process cannot create memory groups: no
	// memory controller is mounted, the hierarchy is read-only, or the
	// process lacks the permission (it is not root). The wrapping error
	// names which, and the fix.
	ErrUnavailable = errors.New("cgroup: memory groups unavailable")
	// ErrLimitTooLow means Create was asked for a limit below MinLimit.
	ErrLimitTooLow = errors.New("cgroup: memory limit too low")
	// ErrBusy means Remove found processes still in the group after
	// waiting for them to leave.
	ErrBusy = errors.New("cgroup: group still holds processes")
)
