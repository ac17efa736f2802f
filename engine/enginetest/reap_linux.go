package enginetest

import (
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/tsbench/storage/internal/measure"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// subreaper counts the tests that need this process to be a subreaper:
// the setting is the process's, and tests that run in parallel share it.
var subreaper struct {
	sync.Mutex
	users int
}

// adoptOrphans makes processes orphaned by this process's children (an
// engine's server processes, such as etcd's members) its own children,
// and returns kill, which kills a child, and waitGone, which waits for
// the processes that descended from it when it was killed to exit: a
// killed child's engine is gone only when they are. Only those: this
// process's other children, such as a server a test shares between its
// subtests or those of tests running in parallel, live on.
func adoptOrphans() (kill func(*os.Process), waitGone func()) {
	subreaper.Lock()
	adopted := subreaper.users > 0
	if !adopted {
		_, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
		adopted = e == 0
	}
	if adopted {
		subreaper.users++
	}
	subreaper.Unlock()
	var orphans []int
	kill = func(p *os.Process) {
		orphans = descendants(p.Pid)
		p.Kill()
	}
	waitGone = func() {
		if !adopted {
			return
		}
		defer func() {
			subreaper.Lock()
			if subreaper.users--; subreaper.users == 0 {
				syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0)
			}
			subreaper.Unlock()
		}()
		deadline := time.Now().Add(30 * time.Second)
		for _, pid := range orphans {
			for time.Now().Before(deadline) {
				var ws syscall.WaitStatus
				syscall.Wait4(pid, &ws, syscall.WNOHANG, nil) // reaps it once it is ours and has exited
				if syscall.Kill(pid, 0) == syscall.ESRCH {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	return kill, waitGone
}

// descendants lists pid's children, theirs, and so on.
func descendants(pid int) []int {
	var out []int
	for _, c := range measure.ChildrenOf(pid) {
		out = append(append(out, c), descendants(c)...)
	}
	return out
}
