package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// runEngine runs one engine in a child process of this same binary, so its
// memory, CPU time and I/O counters are its own and a crash loses only its
// own result. It always returns a result: a child that cannot start,
// crashes, stalls or writes none gives one holding that error, in one
// line. Its data goes in the run directory's subdirectory dir, and it is
// the engine's run number repeat. When the run failed and the child wrote
// anything to its stdout or stderr (a crash trace), that goes to a log
// file, whose path it returns.
func runEngine[R any](ctx context.Context, su suite[R], s *settings, rd *runDir, name, dir string, repeat int, progressMode string, stderr io.Writer) (*R, string) {
	res, output, err := spawn(ctx, su, s, rd, name, dir, progressMode, stderr)
	if res == nil {
		res = startResult(su, s, name)
	}
	su.label(res, name, repeat, err)
	if why := su.failure(res); why != "" && ctx.Err() == nil {
		if note := diskFull(filepath.Join(rd.path, dir), why); note != "" {
			su.fail(res, note+": "+why)
		}
	}
	log := ""
	if len(output) > 0 {
		if su.failure(res) == "" {
			// Warnings of a library that worked: shown as they were.
			stderr.Write(output)
		} else if p, err := writeLog(s.runID, dir, output); err != nil {
			fmt.Fprintf(stderr, "benchmark-storage: %s: keep the engine process's output: %v\n", name, err)
		} else {
			log = p
		}
	}
	return res, log
}

// spawn starts the child, waits for it and reads its result; output is
// what the child wrote to its stdout and stderr.
func spawn[R any](ctx context.Context, su suite[R], s *settings, rd *runDir, name, sub, progressMode string, stderr io.Writer) (res *R, output []byte, err error) {
	dir, err := rd.engineDir(sub)
	if err != nil {
		return nil, nil, err
	}
	group, err := newMemoryGroup(s.memory, s.runID, sub)
	if err != nil {
		return nil, nil, err
	}
	if group != nil {
		defer func() {
			if rerr := group.Remove(); rerr != nil {
				fmt.Fprintf(stderr, "benchmark-storage: %s: %v\n", name, rerr)
			}
		}()
	}
	runCtx := ctx
	if s.maxTime > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, s.maxTime)
		defer cancel()
	}
	p, err := startChild(runCtx, newJob(s, roleRun, name, dir, progressMode), stderr, s.stall, nil)
	if err != nil {
		return nil, nil, err
	}
	if group != nil {
		if err := group.Add(p.cmd.Process.Pid); err != nil {
			p.kill()
			p.wait()
			return nil, p.output.Bytes(), fmt.Errorf("memory cgroup: %w", err)
		}
	}
	runErr := p.wait()
	output = p.output.Bytes()
	res, readErr := decodeResult[R](p.out)
	if readErr != nil {
		// What the child sent before it ended, if anything: the steps it
		// finished, for a report of how far it got.
		res = partialResult[R](&p.status)
	}
	if oom := outOfMemory(group, &p.status); oom != nil && runErr != nil {
		if res != nil && su.failure(res) != "" {
			// The child outlived the process the kernel ended (an etcd
			// member) and reported what that did to it: the cause first.
			su.fail(res, oom.Error()+"; then "+su.failure(res))
		}
		return res, output, oom
	}
	switch {
	case runErr != nil && ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded):
		return res, output, fmt.Errorf("stopped at the -max-time limit of %v %s", s.maxTime, p.status.where())
	case errors.Is(runErr, errStalled):
		return res, output, fmt.Errorf("engine process made no progress for %v (no CPU time, no disk I/O), so it was stopped: a deadlock? raise -stall-timeout if the engine is merely slow", s.stall)
	case readErr == nil && runErr != nil && su.failure(res) == "":
		return res, output, fmt.Errorf("engine process %s after its result", describeExit(runErr))
	case readErr == nil:
		return res, output, nil
	case runErr != nil:
		why := describeExit(runErr)
		if line := crashLine(output); line != "" {
			why += ": " + line
		}
		return res, output, fmt.Errorf("engine process %s", why)
	case len(p.out) == 0:
		return res, output, errors.New("engine process exited without a result")
	default:
		return res, output, fmt.Errorf("engine process left a broken result: %w", readErr)
	}
}

// childCommand is the program that runs job j, and its arguments from
// argv[0]: the JVM worker for a JVM engine (jvmCommand), else the very
// program this process runs, even if its file was replaced since it
// started (a rebuild during a long run). The engine's name after the flag
// only shows in ps; the job is on stdin.
func childCommand(j job) (path string, args []string) {
	if isJVM(j.Engine) {
		return jvmCommand(j)
	}
	return "/proc/self/exe", []string{os.Args[0], childJobFlag, j.Engine}
}

// Roles of a child process (job.Role).
const (
	roleRun         = "run"          // run the suite on one engine
	roleCrashWriter = "crash-writer" // commit batches until killed
	roleCrashReader = "crash-reader" // reopen and read back
)

// decodeResult decodes the result a child sent.
func decodeResult[R any](b []byte) (*R, error) {
	if len(b) == 0 {
		return nil, errors.New("no result")
	}
	res := new(R)
	if err := json.Unmarshal(b, res); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return res, nil
}

// logDir is where the output of failed engine processes goes: the user's
// cache, not -path, whose file system may be the one that is full and
// which the run leaves as it found it.
func logDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "benchmark-storage", "logs")
	}
	return filepath.Join(os.TempDir(), "benchmark-storage-logs")
}

// writeLog writes a failed engine process's output to a file named after
// the run and the engine's directory.
func writeLog(runID, dir string, output []byte) (string, error) {
	d := logDir()
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(d, runID+"-"+strings.ReplaceAll(dir, string(filepath.Separator), "_")+".log")
	return p, os.WriteFile(p, output, 0o644)
}
