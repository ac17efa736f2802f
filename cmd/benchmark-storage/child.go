package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/supervise"
)

// runChild runs the suite on the one engine named in s, in the data
// directory its parent created, and sends the result as JSON to its
// parent (supervise.SendResult). It returns exitOK, or exitFailed when
// the engine or a verification failed; the result says why either way,
// unless the process dies first.
func runChild[R any](su suite[R], s *settings, stderr io.Writer) int {
	name := s.engines[0]
	var res *R
	opts, err := engineOptions(s, name)
	if err == nil {
		p := newProgress(supervise.ProgressPipe(), s.child.progress, name)
		p.report = supervise.StatusPipe()
		if err = supervise.JoinMemoryGroup(s.memory); err == nil {
			res, err = runCaught(su, s, name, opts, p, stderr)
		}
	}
	if res == nil {
		res = su.start(s, name)
	}
	label(su, res, name, 0, err)
	if err := supervise.SendResult(res); err != nil {
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

// childJobFlag, as the first argument, makes this process a child that
// reads its job from stdin.
const childJobFlag = "-child-job"

// startedByParent refuses childJobFlag unless this process is a child its
// parent started (supervise.CheckParent).
func startedByParent() error {
	if err := supervise.CheckParent(); err != nil {
		return inputErrorf("%s is internal: benchmark-storage passes it to the processes it starts; run it without it", childJobFlag)
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
