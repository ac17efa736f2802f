// Package supervise runs the processes of a benchmark as child processes
// and watches them: one child per engine, so that its memory, CPU time and
// I/O counters are its own and a crash loses only its result. It also
// gives a child its end of the pipes.
//
// A parent starts a child with Start and waits for it with Wait, then
// Release. The child reads its job on stdin. It writes its result on
// ResultFD, a pipe, never through the data's file system, which may be
// full; draws progress for people on ProgressFD, which the parent copies
// to Options.Progress; and reports on StatusFD, one Status line at a
// time, which step it is in and, after each step, the result so far, so
// that the parent can say how far a stopped child got and report the
// steps it finished (StatusLog). What it prints itself on stdout and
// stderr, such as a crash trace, is captured (the first and last 2 MiB)
// for a log file under LogDir (SaveOutput) and for the one line that
// says why it died (Why).
//
// A child ends on its own (Wait returns its exit, nil for status 0), or
// is ended in one of these ways:
//
//   - The watchdog: a child that, with its live children, uses no CPU
//     and does no storage I/O (measure.ReadActivity) for Options.Stall,
//     a deadlock, is sent SIGQUIT, on which a Go program prints every
//     goroutine's stack, and is killed StopDelay later, or Stall if that
//     is shorter: ErrStalled.
//   - The time limit: Options.MaxTime after its start the child is sent
//     SIGTERM, and killed StopDelay later: ErrMaxTime.
//   - The memory limit: Start puts the child in a memory cgroup of
//     Options.Memory bytes, page cache included, before it opens its
//     engine (the child waits in JoinMemoryGroup); a child in whose group
//     the kernel's OOM killer ended a process: ErrOutOfMemory.
//   - The parent's context, canceled on SIGINT or SIGTERM: SIGTERM, and
//     SIGKILL StopDelay later; Wait returns that exit. The child ignores
//     SIGINT (InitChild), which a terminal sends the whole process group,
//     so that the parent alone ends it and always knows why.
//   - The parent's death: if the parent is killed outright, the kernel
//     kills the child too (the parent-death signal), rather than leaving
//     it running unobserved.
//
// Cleaning up: Wait waits at most StopDelay for pipes a grandchild still
// holds after the child exited (a killed child's etcd member), then
// takes what came. Release removes the memory cgroup once the child has
// exited, whether it was killed or not; the group of a parent that was
// killed itself stays behind until the next run removes it
// (cgroup.RemoveStale). A process that kills its children on purpose
// (the crash check's writers) becomes their subreaper first
// (BecomeSubreaper), so that it can wait until what they started is gone
// too (ReapOrphans). The child's data is the caller's to remove.
package supervise
