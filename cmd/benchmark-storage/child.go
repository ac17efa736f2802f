package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/suite"
)

// runChild runs the workload on the one engine named in s, in the data
// directory its parent created, and sends the result as JSON to its
// parent (supervise.SendResult). It returns exitOK, or exitFailed when
// the engine or a verification failed; the result says why either way,
// unless the process dies first.
func runChild(s *settings, stderr io.Writer) int {
	name := s.engines[0]
	var res *suite.Result
	e, err := childEngine(s)
	if err == nil {
		p := newProgress(supervise.ProgressPipe(), s.child.progress, name)
		p.report = supervise.StatusPipe()
		e.Progress = p
		e.Spawn = func(role, dir string, opts supervise.Options) (*supervise.Child, error) {
			// A role's process inherits this one's environment, and with
			// it the release of the library this one loaded.
			cmd, err := childCommand(newJob(s, role, name, dir, "log"), nil)
			if err != nil {
				return nil, err
			}
			return supervise.Start(context.Background(), cmd, opts)
		}
		if s.workload.Info().Stops {
			e.Stop = stopOnSIGTERM(p.stopping)
		}
		if err = supervise.JoinMemoryGroup(s.memory); err == nil {
			res, err = runProfiled(s, e, stderr)
		}
		if res != nil && errors.Is(err, suite.ErrStopped) {
			// The result says how far it got and keeps any failure
			// before the stop; the parent says why it stopped.
			err = nil
		}
	}
	if res == nil {
		res = s.workload.Start(s.effective(name))
	}
	label(res, name, 0, err)
	if err := supervise.SendResult(res); err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %s: %v\n", name, err)
		return exitFailed
	}
	if res.Failure() != "" {
		return exitFailed
	}
	return exitOK
}

// stopOnSIGTERM returns a channel closed by the first SIGTERM, which the
// parent sends at -max-time, so that the workload ends its run and
// reports how far it got within supervise.StopDelay; then is called
// first. A second SIGTERM ends the process.
func stopOnSIGTERM(then func()) <-chan struct{} {
	stop := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	go func() {
		<-sig
		signal.Stop(sig)
		then()
		close(stop)
	}()
	return stop
}

// runCaught runs the workload and turns a panic of the engine into an
// error; its trace goes to stderr, which the parent keeps in a log file.
// The engine is not closed after a panic: it may hold its locks, so that
// Close would wait forever (Pebble on a full disk).
func runCaught(s *settings, e *suite.Engine, stderr io.Writer) (res *suite.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "panic: %v\n\n%s", r, debug.Stack())
			res, err = nil, fmt.Errorf("engine panicked: %v", r)
		}
	}()
	return s.workload.Run(e)
}

// runRole runs a role of the workload's own (suite.Roles) on the engine
// named in s: a process its run started, which reports on its result
// pipe. It returns exitOK, exitFailed when the role failed, or
// exitBadInput for a role the workload does not have.
func runRole(s *settings, stderr io.Writer) int {
	e, err := childEngine(s)
	if err == nil {
		err = s.workload.Role(s.child.role, e)
	}
	switch {
	case errors.Is(err, suite.ErrNoRole):
		fmt.Fprintf(stderr, "benchmark-storage: unknown child role %q\n", s.child.role)
		return exitBadInput
	case err != nil:
		return exitFailed
	}
	return exitOK
}

// childEngine is the engine named in s as a workload runs it, with the
// options resolved once in the parent (resolveOptions).
func childEngine(s *settings) (*suite.Engine, error) {
	spec, ok := s.specs[s.engines[0]]
	if !ok {
		return nil, fmt.Errorf("no options resolved for %s", s.engines[0])
	}
	eff, err := spec.Effective()
	if err != nil {
		return nil, err
	}
	return &suite.Engine{Name: spec.Name, Options: spec.Options, Effective: eff, Dir: s.child.dir, Dataset: s.common.Dataset,
		Distributions: s.latencyLog != "", Stall: s.stall}, nil
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
