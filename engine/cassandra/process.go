package cassandra

import (
	"fmt"
	"os/exec"
	"runtime"
	"syscall"

	"github.com/tsbench/storage/internal/cgroup"
)

// process is a child JVM of this process: a node, or the probe that
// Compact sends its requests to.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited
	err  error         // how it exited; read only after done
	// group, if not nil, is the memory cgroup the process runs in,
	// removed once it has exited.
	group *cgroup.Group
}

// start starts cmd, its output already directed, and returns once it has
// started.
//
// The child must die with this process, whatever ends it, or it would run
// on unobserved, holding its addresses and directory: it gets Pdeathsig.
// That signal fires when the thread that started the child ends, not the
// process, and the Go runtime ends a thread whose goroutine exits while
// locked to it. So the goroutine that starts the child stays locked to its
// thread until the child has exited. The child also gets its own process
// group, so that a Ctrl-C meant for this process does not stop it behind
// the engine's back.
//
// With p.group set, the child starts in that memory cgroup where the
// kernel allows (cgroup v2), or is moved into it at once (v1); an exit by
// the OOM killer's hand says so in p.err, and the group goes with the
// child.
func (p *process) start(cmd *exec.Cmd) error {
	p.cmd, p.done = cmd, make(chan struct{})
	started := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: see above
		attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		fd, into := -1, false
		if p.group != nil {
			fd, into = p.group.FD()
		}
		attr.UseCgroupFD, attr.CgroupFD = into, fd
		p.cmd.SysProcAttr = attr
		if err := p.cmd.Start(); err != nil {
			p.removeGroup()
			started <- err
			return
		}
		if p.group != nil && !into {
			if err := p.group.Add(p.cmd.Process.Pid); err != nil {
				p.cmd.Process.Kill()
				p.cmd.Wait()
				p.removeGroup()
				started <- err
				return
			}
		}
		started <- nil
		p.err = p.cmd.Wait()
		if p.group != nil {
			if n, err := p.group.OOMKills(); err == nil && n > 0 {
				p.err = fmt.Errorf("%w, by the kernel's OOM killer: its memory cgroup's limit of %d MiB (node_memory) was reached", p.err, p.group.Limit()>>20)
			}
			p.removeGroup()
		}
		close(p.done)
	}()
	return <-started
}

// removeGroup removes p's memory cgroup, if it has one. A group that
// cannot be removed is left to the next run, which removes the groups of
// processes that are gone (cgroup.RemoveStale).
func (p *process) removeGroup() {
	if p.group != nil {
		p.group.Remove()
	}
}

// exited reports whether the process has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill ends the process at once and waits for it to exit.
func (p *process) kill() {
	p.cmd.Process.Kill()
	<-p.done
}
