package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload"
)

// run is the whole program: main only exits with its status.
func run(args []string, stdout, stderr io.Writer) int {
	s, err := parseFlags(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage(stderr)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		return exitBadInput
	case s.child.result != "":
		return runChild(s, stderr)
	}
	err = runParent(s, stdout, stderr)
	switch {
	case err == nil:
		return exitOK
	case isInputError(err):
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		return exitBadInput
	case errors.Is(err, errInterrupted):
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		return exitInterrupted
	default:
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		return exitFailed
	}
}

var errInterrupted = errors.New("interrupted")

// runParent checks everything it can, then runs each engine in its own
// child process, one after another, and reports them side by side.
func runParent(s *settings, stdout, stderr io.Writer) error {
	// Every mistake in the input shows before anything is created.
	var sync engine.SyncMode
	for _, name := range s.engines {
		opts, err := engineOptions(s, name)
		if err != nil {
			return &inputError{err}
		}
		// Sync is a shared key, so it is the same for every engine.
		sync = opts.Sync
	}
	if err := workloadConfig(s).Validate(); err != nil {
		return &inputError{err}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rd, err := createRunDir(s.path)
	if err != nil {
		return err
	}
	rep := &workload.Report{Env: workload.CollectEnvironment(rd.path)}
	rep.Env.Seed, rep.Env.Sync = s.seed, sync
	mode := progressMode(stderr)
	var kept []string
	for i, name := range s.engines {
		fmt.Fprintf(stderr, "benchmark-storage: %s (%d of %d), data in %s\n", name, i+1, len(s.engines), filepath.Join(rd.path, name))
		start := time.Now()
		res := runEngine(ctx, s, rd, name, mode, stderr)
		if ctx.Err() != nil {
			// The interrupted engine's data is partial: it always goes.
			rd.removeEngine(name)
			return interrupted(s, rd, rep, kept, stdout, stderr)
		}
		if failed(res) {
			fmt.Fprintf(stderr, "benchmark-storage: %s FAILED after %s: %s\n", name, roundDuration(time.Since(start)), firstError(res))
		} else {
			fmt.Fprintf(stderr, "benchmark-storage: %s done in %s\n", name, roundDuration(time.Since(start)))
		}
		if s.keep {
			kept = append(kept, name)
		} else if err := rd.removeEngine(name); err != nil {
			fmt.Fprintf(stderr, "benchmark-storage: %s: remove data: %v\n", name, err)
		}
		// Write back what is still dirty now, so that the next engine does
		// not pay for this one's writeback.
		syscall.Sync()
		rep.Results = append(rep.Results, res)
	}
	finish(s, rd, kept, stderr)
	return report(s, rep, stdout)
}

// interrupted cleans up after Ctrl-C and still reports the engines that
// finished.
func interrupted(s *settings, rd *runDir, rep *workload.Report, kept []string, stdout, stderr io.Writer) error {
	finish(s, rd, kept, stderr)
	if len(rep.Results) > 0 {
		if err := report(s, rep, stdout); err != nil {
			fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		}
	}
	return fmt.Errorf("%w: stopped the engine process and removed its data", errInterrupted)
}

// finish removes the run directory, or with -keep says where each engine's
// data is.
func finish(s *settings, rd *runDir, kept []string, stderr io.Writer) {
	if !s.keep || len(kept) == 0 {
		if err := rd.remove(); err != nil {
			fmt.Fprintf(stderr, "benchmark-storage: remove %s: %v\n", rd.path, err)
		}
		return
	}
	for _, name := range kept {
		fmt.Fprintf(stderr, "benchmark-storage: kept %s data in %s\n", name, filepath.Join(rd.path, name))
	}
}

// report prints the results and writes -out. Its error is a failed engine
// or verification, or a report that could not be written.
func report(s *settings, rep *workload.Report, stdout io.Writer) error {
	err := writeReport(stdout, rep, s.format)
	if s.out != "" {
		err = errors.Join(err, writeOut(s.out, rep, s.outFormat))
	}
	if err != nil {
		return err
	}
	var names []string
	for _, res := range rep.Results {
		if failed(res) {
			names = append(names, res.Engine)
		}
	}
	if len(names) > 0 {
		return fmt.Errorf("%s failed; the report shows why", strings.Join(names, ", "))
	}
	return nil
}

// firstError is the error that made an engine's run fail.
func firstError(res *workload.Result) string {
	if res.Error != "" {
		return res.Error
	}
	for _, st := range res.Steps {
		if st.Error != "" {
			return st.Name + ": " + st.Error
		}
	}
	return ""
}

// progressMode draws bars only for a person watching a terminal.
func progressMode(stderr io.Writer) string {
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "bar"
	}
	return "log"
}
