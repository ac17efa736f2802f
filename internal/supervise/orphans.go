package supervise

import (
	"syscall"
	"time"

	"github.com/tsbench/storage/internal/measure"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// BecomeSubreaper makes the orphans of this process's descendants its
// children rather than init's, so that it can wait until they are gone
// (ReapOrphans): the processes a killed child had started.
func BecomeSubreaper() error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return e
	}
	return nil
}

// ReapOrphans waits until every child of this process has exited, and
// kills those still there after StopDelay; it returns those still there
// StopDelay after that, none if all went. Call it when the only children
// left are processes a killed child left behind, which its death has
// signalled already (a process an engine starts dies with its parent).
func ReapOrphans() (left []int) {
	deadline := time.Now().Add(StopDelay)
	for {
		kids := measure.Children()
		if len(kids) == 0 {
			return nil
		}
		for _, pid := range kids {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
		if time.Now().After(deadline.Add(StopDelay)) {
			return kids
		}
		time.Sleep(10 * time.Millisecond)
	}
}
