package supervise

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"github.com/tsbench/storage/internal/cgroup"
)

// StopDelay is how long a child may take to exit after SIGTERM, or after
// SIGQUIT from the watchdog, before it is killed; and how long Wait waits
// for the pipes of a child that has exited.
const StopDelay = 10 * time.Second

// Command is what a child runs.
type Command struct {
	// Path is the program's file, and Args its arguments from argv[0].
	Path string
	Args []string
	// Job is written to its stdin.
	Job []byte
	// Env are variables it gets beyond this process's environment,
	// "KEY=value", overriding any of the same key.
	Env []string
}

// Options are how Start watches and limits a child; the zero value
// watches nothing and limits nothing.
type Options struct {
	// Progress gets what the child draws on ProgressFD; nil discards it.
	Progress io.Writer
	// Results, if not nil, gets what the child writes on ResultFD as it
	// comes, instead of Result.
	Results io.Writer
	// Stall is how long the child may make no progress before the
	// watchdog stops it; 0 never.
	Stall time.Duration
	// MaxTime is how long the child may run; 0 is no limit.
	MaxTime time.Duration
	// Memory is the limit of the memory cgroup the child runs in, in
	// bytes; 0 runs it in none. Group names the cgroup, unique in the
	// run.
	Memory int64
	Group  string
}

// Child is a child process, started by Start.
type Child struct {
	cmd *exec.Cmd
	// ctx is the caller's; runCtx ends at MaxTime too.
	ctx, runCtx context.Context
	cancel      context.CancelFunc
	group       *cgroup.Group
	limit       int64

	out        []byte        // what it wrote to ResultFD, once outDone is closed
	outDone    chan struct{} // closed when ResultFD reached EOF
	output     *capture      // its stdout and stderr
	status     StatusLog     // what it reported on StatusFD
	statusDone chan struct{} // closed when StatusFD reached EOF
	exited     chan struct{} // closed when it has exited
	stalled    chan struct{} // closed when the watchdog stopped it
}

// Start starts the child: cmd, reading cmd.Job on its stdin, with
// ResultFD, ProgressFD and StatusFD open, in a memory cgroup of
// opt.Memory bytes if that is set, watched by the watchdog and stopped at
// opt.MaxTime or when ctx ends (see the package documentation). What the
// child writes on stdout and stderr is captured.
//
// The calling goroutine stays on its OS thread until Wait returns, since
// the child's parent-death signal follows the thread that started it.
func Start(ctx context.Context, cmd Command, opt Options) (*Child, error) {
	group, err := newGroup(opt.Memory, opt.Group)
	if err != nil {
		return nil, err
	}
	c, err := start(ctx, cmd, opt)
	if err != nil {
		return nil, errors.Join(err, removeGroup(group))
	}
	c.group = group
	if group != nil {
		c.limit = group.Limit()
		if err := group.Add(c.cmd.Process.Pid); err != nil {
			c.Kill()
			c.Wait()
			return nil, errors.Join(fmt.Errorf("%w: %w", ErrMemoryGroup, err), c.Release())
		}
	}
	return c, nil
}

// start starts the process with its pipes and the goroutines that read
// them and watch it.
func start(ctx context.Context, cmd Command, opt Options) (*Child, error) {
	resR, resW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	defer resW.Close()
	progW, progDone, err := progressPipe(opt.Progress)
	if err != nil {
		resR.Close()
		return nil, err
	}
	defer progW.Close()
	statR, statW, err := os.Pipe()
	if err != nil {
		resR.Close()
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	defer statW.Close()

	c := &Child{ctx: ctx, runCtx: ctx, cancel: func() {}, outDone: make(chan struct{}), statusDone: make(chan struct{}),
		output: &capture{}, exited: make(chan struct{}), stalled: make(chan struct{})}
	if opt.MaxTime > 0 {
		c.runCtx, c.cancel = context.WithTimeout(ctx, opt.MaxTime)
	}
	x := exec.CommandContext(c.runCtx, cmd.Path, cmd.Args[1:]...)
	x.Args[0] = cmd.Args[0]
	x.Stdin = bytes.NewReader(cmd.Job)
	if len(cmd.Env) > 0 {
		x.Env = append(os.Environ(), cmd.Env...) // the last of a key wins
	}
	x.Stdout, x.Stderr = c.output, c.output
	x.ExtraFiles = []*os.File{resW, progW, statW} // ResultFD, ProgressFD, StatusFD
	x.Cancel = func() error { return x.Process.Signal(syscall.SIGTERM) }
	x.WaitDelay = StopDelay
	// If this process is killed outright, the child goes too rather than
	// running on unobserved.
	x.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	c.cmd = x
	runtime.LockOSThread()
	if err := x.Start(); err != nil {
		runtime.UnlockOSThread()
		c.cancel()
		resR.Close()
		statR.Close()
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	go func() {
		defer close(c.statusDone)
		defer statR.Close()
		c.status.Read(statR)
	}()
	go func() {
		defer close(c.outDone)
		defer resR.Close()
		if opt.Results != nil {
			_, _ = io.Copy(opt.Results, resR)
		} else {
			c.out, _ = io.ReadAll(resR)
		}
		<-progDone
	}()
	go c.watch(opt.Stall)
	return c, nil
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
		return nil, nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	go func() {
		defer close(done)
		defer r.Close()
		_, _ = io.Copy(w, r)
	}()
	return f, done, nil
}

// Wait waits for the child to exit and for its pipes to be read to the
// end. Its error is nil when the child exited with status 0; otherwise
// ErrOutOfMemory, ErrMaxTime or ErrStalled if the child was ended so, in
// that order, or else its exit (an *exec.ExitError).
func (c *Child) Wait() error {
	err := c.cmd.Wait()
	close(c.exited)
	runtime.UnlockOSThread()
	deadline := time.NewTimer(StopDelay)
	defer deadline.Stop()
pipes:
	for _, done := range []chan struct{}{c.outDone, c.statusDone} {
		select {
		case <-done:
		case <-deadline.C:
			// A grandchild still holds a pipe; what came is what there is.
			break pipes
		}
	}
	defer c.cancel()
	stalled := false
	select {
	case <-c.stalled:
		stalled = true
	default:
	}
	switch {
	case err == nil && !stalled:
		return nil
	case c.outOfMemory():
		return ErrOutOfMemory
	case c.ctx.Err() == nil && errors.Is(c.runCtx.Err(), context.DeadlineExceeded):
		return ErrMaxTime
	case stalled:
		return ErrStalled
	}
	return err
}

// Kill ends the child at once.
func (c *Child) Kill() { _ = c.cmd.Process.Kill() }

// Release removes the child's memory cgroup, if it has one, once Wait has
// returned.
func (c *Child) Release() error { return removeGroup(c.group) }

// Result is what the child wrote on ResultFD, once Wait has returned;
// nil with Options.Results.
func (c *Child) Result() []byte { return c.out }

// Output is what the child wrote on its stdout and stderr, with a note
// where a middle part was left out.
func (c *Child) Output() []byte { return c.output.Bytes() }

// Status is what the child reported on StatusFD.
func (c *Child) Status() *StatusLog { return &c.status }

// MemoryLimit is the limit of the child's memory cgroup as the kernel
// enforces it (rounded down to a page), 0 without one.
func (c *Child) MemoryLimit() int64 { return c.limit }
