package enginetest

import (
	"syscall"
	"time"

	"github.com/tsbench/storage/internal/measure"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// adoptOrphans makes processes orphaned by this process's children (an
// engine's server processes, such as etcd's members) its own children
// until the returned function is called, which waits for them to exit:
// a killed child's engine is gone only when they are.
func adoptOrphans() (waitGone func()) {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return func() {}
	}
	return func() {
		defer syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0)
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			kids := measure.Children()
			if len(kids) == 0 {
				return
			}
			for _, pid := range kids {
				var ws syscall.WaitStatus
				syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
