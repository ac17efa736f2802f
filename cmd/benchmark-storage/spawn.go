package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// runEngine runs one engine in a child process of this same binary, so its
// memory, CPU time and I/O counters are its own and a crash loses only its
// own result. It always returns a result: a child that cannot start,
// crashes, stalls or writes none gives one holding that error, in one
// line. Its data goes in the run directory's subdirectory dir, and it is
// the engine's run number repeat. When the run failed and the child wrote
// anything to its stdout or stderr (a crash trace), that goes to a log
// file, whose path it returns.
func runEngine(ctx context.Context, s *settings, rd *runDir, name, dir string, repeat int, progressMode string, stderr io.Writer) (*suite.Result, string) {
	res, c, err := spawn(ctx, s, rd, name, dir, progressMode, stderr)
	if res == nil {
		res = s.workload.Start(s.effective(name))
	}
	label(res, name, repeat, err)
	ranRelease(res, s.releases[name])
	if why := res.Failure(); why != "" && ctx.Err() == nil {
		if note := diskFull(filepath.Join(rd.path, dir), why); note != "" {
			fail(res, note+": "+why)
		}
	}
	if c == nil || len(c.Output()) == 0 {
		return res, ""
	}
	if res.Failure() == "" {
		// Warnings of a library that worked: shown as they were.
		stderr.Write(c.Output())
		return res, ""
	}
	log, err := c.SaveOutput(s.runID + "-" + dir)
	if err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %s: keep the engine process's output: %v\n", name, err)
		return res, ""
	}
	return res, log
}

// spawn starts the child in the run directory's subdirectory sub, waits
// for it and reads its result; c is nil when it did not start.
func spawn(ctx context.Context, s *settings, rd *runDir, name, sub, progressMode string, stderr io.Writer) (res *suite.Result, c *supervise.Child, err error) {
	dir, err := rd.engineDir(sub)
	if err != nil {
		return nil, nil, err
	}
	cmd, err := childCommand(newJob(s, roleRun, name, dir, progressMode), s.releases[name].Env())
	if err != nil {
		return nil, nil, err
	}
	c, err = supervise.Start(ctx, cmd, supervise.Options{
		Progress: stderr, Stall: s.stall, MaxTime: s.maxTime, Memory: s.memory, Group: s.runID + "-" + sub,
	})
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if rerr := c.Release(); rerr != nil {
			fmt.Fprintf(stderr, "benchmark-storage: %s: %v\n", name, rerr)
		}
	}()
	runErr := c.Wait()
	res, readErr := s.workload.DecodeResult(c.Result())
	if readErr != nil {
		// What the child sent before it ended, if anything: the steps it
		// finished, for a report of how far it got.
		res = partialResult(s.workload.Suite, c.Status())
	}
	switch {
	case errors.Is(runErr, supervise.ErrOutOfMemory):
		oom := fmt.Errorf("out of memory %s (limit %s): the kernel's OOM killer ended the engine process or one it started", where(c.Status(), true), report.Bytes(c.MemoryLimit()))
		if res != nil && res.Failure() != "" {
			// The child outlived the process the kernel ended (an etcd
			// member) and reported what that did to it: the cause first.
			fail(res, oom.Error()+"; then "+res.Failure())
		}
		return res, c, endedError{harness.OutcomeOutOfMemory, oom}
	case errors.Is(runErr, supervise.ErrMaxTime):
		// A workload that stops (suite.Info.Stops) reports the step it
		// was in with its own rate.
		stopped := fmt.Errorf("stopped at the -max-time limit of %v %s", s.maxTime, where(c.Status(), res == nil || !s.workload.Info().Stops))
		if res == nil {
			return res, c, endedError{harness.OutcomeStopped, stopped}
		}
		// The step it was in reports how far it got; a failure before
		// that is the run's own, kept after the stop, and the run counts
		// as failed rather than stopped.
		if own := *res.Fields().Err; own != "" {
			stopped = fmt.Errorf("%w; before that: %s", stopped, own)
			fail(res, stopped.Error())
			return res, c, stopped
		}
		fail(res, stopped.Error())
		return res, c, endedError{harness.OutcomeStopped, stopped}
	case errors.Is(runErr, supervise.ErrStalled):
		return res, c, fmt.Errorf("engine process made no progress for %v (no CPU time, no disk I/O), so it was stopped: a deadlock? raise -stall-timeout if the engine is merely slow", s.stall)
	case readErr == nil && runErr != nil && res.Failure() == "":
		return res, c, fmt.Errorf("engine process %s after its result", supervise.DescribeExit(runErr))
	case readErr == nil:
		return res, c, nil
	case runErr != nil:
		return res, c, fmt.Errorf("engine process %s", c.Why(runErr))
	case len(c.Result()) == 0:
		return res, c, errors.New("engine process exited without a result")
	default:
		return res, c, fmt.Errorf("engine process left a broken result: %w", readErr)
	}
}

// endedError is the error of a run the benchmark ended, with how
// (harness.Header.Outcome), which label records.
type endedError struct {
	outcome string
	error
}

// childCommand is the child that does job j, with env added to its
// environment (engine.Release.Env: the release of its library it loads):
// for an engine that runs in a process of its own (engine.Driver.Process:
// the JVM worker), that process; else the very program this process runs,
// even if its file was replaced since it started (a rebuild during a long
// run). The engine's name after the flag only shows in ps; the job is on
// stdin.
func childCommand(j job, env []string) (supervise.Command, error) {
	c := supervise.Command{Path: "/proc/self/exe", Args: []string{os.Args[0]}, Job: j.encode(), Env: env}
	if d, err := engine.Lookup(j.Engine.Name); err == nil && d.Process != nil {
		if c.Path, c.Args, err = d.Process(); err != nil {
			return c, err
		}
	}
	c.Args = append(c.Args, childJobFlag, j.Engine.Name)
	return c, nil
}

// roleRun is the role of a child that runs the workload on its engine
// (job.Role); a workload may have roles of its own (suite.Roles).
const roleRun = "run"
