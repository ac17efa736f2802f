package etcd

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"

	"github.com/tsbench/storage/engine/internal/logtail"
)

// member is one running etcd process of a local cluster.
type member struct {
	addr memberAddr
	cmd  *exec.Cmd
	log  *logtail.Tail
	done chan struct{} // closed once the process has exited
	err  error         // how it exited; read only after done
}

// exited reports whether the process has ended.
func (m *member) exited() bool {
	select {
	case <-m.done:
		return true
	default:
		return false
	}
}

// spawn starts one process per command and returns once all have started
// or one failed (then the others are killed before it returns).
//
// The members must die with this process, whatever ends it, or they would
// run on unobserved, holding their ports and directory: each gets
// Pdeathsig. That signal fires when the thread that started the child
// ends, not the process, and the Go runtime ends a thread whose goroutine
// exits while locked to it. So one goroutine locked to its thread starts
// every member and then stays until every member has exited. Each member
// also gets its own process group, so that a Ctrl-C meant for this
// process does not stop the members behind the engine's back.
func spawn(addrs []memberAddr, cmds []*exec.Cmd) ([]*member, error) {
	type result struct {
		ms  []*member
		err error
	}
	started := make(chan result)
	go func() {
		runtime.LockOSThread() // never unlocked: see above
		var ms []*member
		for i, cmd := range cmds {
			m := &member{addr: addrs[i], cmd: cmd, log: new(logtail.Tail), done: make(chan struct{})}
			cmd.Stdout, cmd.Stderr = m.log, m.log
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
			if err := cmd.Start(); err != nil {
				for _, m := range ms {
					m.cmd.Process.Kill()
					<-m.done
				}
				started <- result{err: err}
				return
			}
			go func() {
				m.err = cmd.Wait()
				close(m.done)
			}()
			ms = append(ms, m)
		}
		started <- result{ms: ms}
		for _, m := range ms {
			<-m.done
		}
	}()
	r := <-started
	return r.ms, r.err
}

// memberEnv is this process's environment without ETCD_* variables, which
// etcd would read as flags.
func memberEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ETCD_") {
			env = append(env, kv)
		}
	}
	return env
}

// quote returns the last n lines of a member's log for an error message.
func quote(t *logtail.Tail, n int) string {
	lines := t.Lines(n)
	if len(lines) == 0 {
		return "it logged nothing"
	}
	return "its log ends:\n" + strings.Join(lines, "\n")
}
