package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/tsbench/storage/engine"
)

// runChild runs the suite on the one engine named in s, in the data
// directory its parent created, and sends the result as JSON to its
// parent (resultFD). It returns exitOK, or exitFailed when the engine or
// a verification failed; the result says why either way, unless the
// process dies first.
func runChild[R any](su suite[R], s *settings, stderr io.Writer) int {
	name := s.engines[0]
	var res *R
	opts, err := engineOptions(s, name)
	if err == nil {
		p := newProgress(progressOut(), s.child.progress, name)
		p.report = statusOut()
		if err = joinMemoryGroup(s.memory); err == nil {
			res, err = runCaught(su, s, name, opts, p, stderr)
		}
	}
	if res == nil {
		res = startResult(su, s, name)
	}
	su.label(res, name, 0, err)
	if err := sendResult(res); err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %s: %v\n", name, err)
		return exitFailed
	}
	if su.failure(res) != "" {
		return exitFailed
	}
	return exitOK
}

// runCaught runs the suite and turns a panic of the engine into an error;
// its trace goes to stderr, which the parent keeps in a log file. The
// engine is not closed after a panic: it may hold its locks, so that
// Close would wait forever (Pebble on a full disk).
func runCaught[R any](su suite[R], s *settings, name string, opts engine.Options, p *progress, stderr io.Writer) (res *R, err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "panic: %v\n\n%s", r, debug.Stack())
			res, err = nil, fmt.Errorf("engine panicked: %v", r)
		}
	}()
	return su.run(s, name, opts, p)
}

// childInit prepares a child: Ctrl-C reaches the whole process group, but
// the parent alone decides, and stops the child with SIGTERM, so that it
// always knows why the child ended. The pipes from the parent are not
// passed on to the child's own children.
func childInit() {
	signal.Ignore(os.Interrupt)
	syscall.CloseOnExec(resultFD)
	syscall.CloseOnExec(progressFD)
	syscall.CloseOnExec(statusFD)
}

// childJobFlag, as the first argument, makes this process a child that
// reads its job from stdin.
const childJobFlag = "-child-job"

// startedByParent refuses childJobFlag unless this process is a child its
// parent started: the parent is this same program and gave it a pipe for
// its result. Run by hand, a job would write into any directory.
func startedByParent() error {
	refuse := inputErrorf("%s is internal: benchmark-storage passes it to the processes it starts; run it without it", childJobFlag)
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		return refuse
	}
	parent, err := os.Stat(fmt.Sprintf("/proc/%d/exe", os.Getppid()))
	if err != nil || !os.SameFile(self, parent) {
		return refuse
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(resultFD, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return refuse
	}
	return nil
}

// progressOut is where a child draws its progress: its parent's stderr.
func progressOut() io.Writer { return os.NewFile(progressFD, "progress") }

// resultOut is the pipe to the parent.
func resultOut() *os.File { return os.NewFile(resultFD, "result") }

// sendResult sends res to the parent in one piece: the parent decodes
// only a complete JSON document, so a child that dies while sending
// leaves no half result.
func sendResult(res any) error {
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	if _, err := resultOut().Write(b); err != nil {
		return fmt.Errorf("send result: %w", err)
	}
	return nil
}

// engineOptions are the options of engine name, resolved once in the
// parent (resolveOptions).
func engineOptions(s *settings, name string) (engine.Options, error) {
	opts, ok := s.options[name]
	if !ok {
		return opts, fmt.Errorf("no options resolved for %s", name)
	}
	return opts, nil
}
