package supervise

import "errors"

var (
	// ErrStart is the error of a child process that could not be started.
	ErrStart = errors.New("start a child process")
	// ErrMemoryGroup is the error of a memory cgroup that could not be
	// made, entered or found.
	ErrMemoryGroup = errors.New("memory cgroup")
	// ErrStalled is Wait's error for a child the watchdog stopped: it
	// used no CPU and did no storage I/O for Options.Stall.
	ErrStalled = errors.New("stalled")
	// ErrMaxTime is Wait's error for a child stopped at Options.MaxTime.
	ErrMaxTime = errors.New("stopped at the time limit")
	// ErrOutOfMemory is Wait's error for a child in whose memory cgroup
	// the kernel's OOM killer ended a process: the child's own, or one it
	// started.
	ErrOutOfMemory = errors.New("out of memory")
	// ErrNotChild is CheckParent's error for a process that its parent
	// did not start as a child.
	ErrNotChild = errors.New("not a child process of this program")
)
