package supervise

import (
	"syscall"
	"time"

	"github.com/tsbench/storage/internal/measure"
)

// watch stops the child when it makes no progress for stall: no CPU time
// beyond 1% of a core and no storage I/O, its own or its live children's.
// A child that deadlocked (a panic holding a lock, waiting on a full
// disk) does neither; one that computes or writes does one.
func (c *Child) watch(stall time.Duration) {
	if stall <= 0 {
		return
	}
	pid := c.cmd.Process.Pid
	tick := min(stall/4, 5*time.Second)
	t := time.NewTicker(tick)
	defer t.Stop()
	last, _ := measure.ReadActivity(pid)
	lastAt := time.Now()
	for {
		select {
		case <-c.exited:
			return
		case <-t.C:
		}
		now, err := measure.ReadActivity(pid)
		if err != nil {
			return // gone
		}
		if now.CPU-last.CPU > tick/100 || now.IO != last.IO {
			last, lastAt = now, time.Now()
			continue
		}
		if time.Since(lastAt) >= stall {
			close(c.stalled)
			_ = c.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-c.exited:
			case <-time.After(min(StopDelay, stall)):
				c.Kill()
			}
			return
		}
	}
}
