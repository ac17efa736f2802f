package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// childStopDelay is how long a child may take to exit after an interrupt,
// or after SIGQUIT from the watchdog, before it is killed.
const childStopDelay = 10 * time.Second

// The file descriptors a child gets from its parent beyond stdin, stdout
// and stderr.
const (
	// resultFD is the write end of a pipe to the parent: the child's
	// result, or the messages of a crash check's writer and reader. The
	// result never goes through the data's file system, which may be full.
	resultFD = 3
	// progressFD is where the child draws its progress: the parent's
	// stderr. The child's own stdout and stderr go to a capture instead,
	// so that a crash trace reaches a log file, not the terminal.
	progressFD = 4
)

// captureLimit bounds what is kept of a child's stdout and stderr: the
// first and the last half of it.
const captureLimit = 4 << 20

// proc is a child process of this binary, started with startChild.
type proc struct {
	cmd     *exec.Cmd
	out     []byte        // what it wrote to resultFD, once done is closed
	outDone chan struct{} // closed when resultFD reached EOF
	output  *capture      // its stdout and stderr
	exited  chan struct{} // closed when it has exited
	stalled chan struct{} // closed when the watchdog stopped it
	status  lastStatus    // the last step it reported on statusFD
	// statusDone is closed when statusFD reached EOF.
	statusDone chan struct{}
}

// startChild starts this binary as a child doing j, which it reads from
// its stdin, its resultFD a pipe read into
// p.out, or into sink as it comes when sink is not nil, and its
// progressFD writing to progress (nil discards). Output the
// child writes to its stdout and stderr is captured (p.output). A child
// that makes no progress (no CPU time and no storage I/O, its own and its
// children's) for stall is sent SIGQUIT, which makes a Go program print
// every goroutine's stack, then killed. ctx's end stops it with SIGTERM.
//
// The calling goroutine stays on its OS thread until wait returns, since
// the child's parent-death signal follows the thread that started it.
func startChild(ctx context.Context, j job, progress io.Writer, stall time.Duration, sink io.Writer) (*proc, error) {
	resR, resW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	defer resW.Close()
	progW, progDone, err := progressPipe(progress)
	if err != nil {
		resR.Close()
		return nil, err
	}
	defer progW.Close()
	statR, statW, err := os.Pipe()
	if err != nil {
		resR.Close()
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	defer statW.Close()

	p := &proc{outDone: make(chan struct{}), statusDone: make(chan struct{}), output: &capture{}, exited: make(chan struct{}), stalled: make(chan struct{})}
	path, args := childCommand(j)
	cmd := exec.CommandContext(ctx, path, args[1:]...)
	cmd.Args[0] = args[0]
	cmd.Stdin = bytes.NewReader(j.encode())
	cmd.Stdout, cmd.Stderr = p.output, p.output
	cmd.ExtraFiles = []*os.File{resW, progW, statW} // resultFD, progressFD, statusFD
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = childStopDelay
	// If this process is killed outright, the child goes too rather than
	// running on unobserved.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	p.cmd = cmd
	runtime.LockOSThread()
	if err := cmd.Start(); err != nil {
		runtime.UnlockOSThread()
		resR.Close()
		statR.Close()
		return nil, fmt.Errorf("start a child process: %w", err)
	}
	go func() {
		defer close(p.statusDone)
		defer statR.Close()
		p.status.read(statR)
	}()
	go func() {
		defer close(p.outDone)
		defer resR.Close()
		if sink != nil {
			_, _ = io.Copy(sink, resR)
		} else {
			p.out, _ = io.ReadAll(resR)
		}
		<-progDone
	}()
	go p.watch(stall)
	return p, nil
}

// progressPipe returns the file a child draws its progress on: a pipe
// copied to w, or /dev/null for nil. done is closed once the copy ended.
func progressPipe(w io.Writer) (f *os.File, done chan struct{}, err error) {
	done = make(chan struct{})
	if w == nil {
		close(done)
		f, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		return f, done, err
	}
	r, f, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("start a child process: %w", err)
	}
	go func() {
		defer close(done)
		defer r.Close()
		_, _ = io.Copy(w, r)
	}()
	return f, done, nil
}

// wait waits for the child to exit and for its result pipe to be read to
// the end. Its error is the child's exit (an *exec.ExitError) or
// errStalled when the watchdog stopped it.
func (p *proc) wait() error {
	err := p.cmd.Wait()
	close(p.exited)
	runtime.UnlockOSThread()
	deadline := time.NewTimer(childStopDelay)
	defer deadline.Stop()
pipes:
	for _, done := range []chan struct{}{p.outDone, p.statusDone} {
		select {
		case <-done:
		case <-deadline.C:
			// A grandchild still holds a pipe; what came is what there is.
			break pipes
		}
	}
	select {
	case <-p.stalled:
		return errStalled
	default:
	}
	return err
}

// kill ends the child at once.
func (p *proc) kill() { _ = p.cmd.Process.Kill() }

// errStalled is the error of a child the watchdog stopped.
var errStalled = errors.New("stalled")

// watch stops the child when it makes no progress for stall: no CPU time
// beyond 1% of a core and no storage I/O, its own or its live children's.
// A child that deadlocked (a panic holding a lock, waiting on a full
// disk) does neither; one that computes or writes does one.
func (p *proc) watch(stall time.Duration) {
	if stall <= 0 {
		return
	}
	pid := p.cmd.Process.Pid
	tick := min(stall/4, 5*time.Second)
	t := time.NewTicker(tick)
	defer t.Stop()
	last, lastAt := activity(pid), time.Now()
	for {
		select {
		case <-p.exited:
			return
		case <-t.C:
		}
		now := activity(pid)
		if now.err != nil {
			return // gone
		}
		if now.cpu-last.cpu > tick/100 || now.io != last.io {
			last, lastAt = now, time.Now()
			continue
		}
		if time.Since(lastAt) >= stall {
			close(p.stalled)
			_ = p.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-p.exited:
			case <-time.After(min(childStopDelay, stall)):
				p.kill()
			}
			return
		}
	}
}

// resUsage is what a process and its live children have consumed so far.
type resUsage struct {
	cpu time.Duration // user and system time
	io  int64         // bytes read from and written to storage
	err error
}

// activity reads the usage of pid and its children from /proc.
func activity(pid int) resUsage {
	u := procUsage(pid)
	if u.err != nil {
		return u
	}
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	for _, t := range tasks {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				cu := procUsage(c)
				u.cpu += cu.cpu
				u.io += cu.io
			}
		}
	}
	return u
}

// clockTick is the unit of /proc/PID/stat's times (USER_HZ, 100 on
// Linux).
const clockTick = 10 * time.Millisecond

// procUsage reads one process's CPU time (its own and its reaped
// children's) and storage I/O.
func procUsage(pid int) resUsage {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return resUsage{err: err}
	}
	// The fields after the command name, which may hold spaces, start
	// with the state (field 3); utime, stime, cutime, cstime are 14-17.
	i := bytes.LastIndexByte(stat, ')')
	f := strings.Fields(string(stat[i+1:]))
	var u resUsage
	if len(f) > 14 {
		for _, s := range f[11:15] {
			n, _ := strconv.ParseInt(s, 10, 64)
			u.cpu += time.Duration(n) * clockTick
		}
	}
	io, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/io")
	for _, line := range strings.Split(string(io), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		if k == "read_bytes" || k == "write_bytes" {
			n, _ := strconv.ParseInt(v, 10, 64)
			u.io += n
		}
	}
	return u
}

// capture keeps what a child writes to its stdout and stderr: all of it
// up to captureLimit, else the first and the last half of that.
type capture struct {
	mu      sync.Mutex
	head    []byte
	tail    []byte // ring of the last bytes once head is full
	dropped int64
}

func (c *capture) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(b)
	if room := captureLimit/2 - len(c.head); room > 0 {
		k := min(room, len(b))
		c.head = append(c.head, b[:k]...)
		b = b[k:]
	}
	c.tail = append(c.tail, b...)
	if over := len(c.tail) - captureLimit/2; over > 0 {
		c.dropped += int64(over)
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return n, nil
}

// Bytes returns what was kept, with a note where a middle part was
// dropped.
func (c *capture) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]byte(nil), c.head...)
	if c.dropped > 0 {
		out = fmt.Appendf(out, "\n[... %d bytes left out ...]\n", c.dropped)
	}
	return append(out, c.tail...)
}

// crashLine is the line of a child's output that says why it died: a Go
// panic or fatal error, a C++ exception or assertion, else the last line
// it wrote (a library's fatal log message), or "" if it wrote nothing.
func crashLine(output []byte) string {
	last := ""
	for _, line := range strings.Split(string(output), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		for _, p := range []string{"panic: ", "fatal error: ", "terminate called", "unexpected fault address", "SIGBUS", "SIGSEGV"} {
			if strings.HasPrefix(line, p) {
				return shorten(line)
			}
		}
		if strings.Contains(line, "Assertion `") {
			return shorten(line)
		}
		last = line
	}
	return shorten(last)
}

// shorten keeps a line of output short enough for a report's column.
func shorten(line string) string {
	if len(line) > 300 {
		return line[:300] + "..."
	}
	return line
}

// describeExit says how a child ended: "exited with status 3", "was
// killed by a signal (segmentation fault)".
func describeExit(err error) string {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return "failed: " + err.Error()
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		d := ws.Signal().String()
		if ws.Signal() == syscall.SIGKILL {
			d += "; out of memory?"
		}
		return "was killed by a signal (" + d + ")"
	}
	return "exited with status " + strconv.Itoa(ee.ExitCode())
}
