package cassandra

import (
	"os/exec"
	"runtime"
	"syscall"
)

// process is a child JVM of this process: a node, or the probe that
// Compact sends its requests to.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited
	err  error         // how it exited; read only after done
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
func (p *process) start(cmd *exec.Cmd) error {
	p.cmd, p.done = cmd, make(chan struct{})
	started := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: see above
		p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := p.cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	return <-started
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
