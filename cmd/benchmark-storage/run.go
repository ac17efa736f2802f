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
	"github.com/tsbench/storage/workload/micro"
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
	case s.child.result != "" && s.micro.on():
		return runChild[micro.Result](microSuite{}, s, stderr)
	case s.child.result != "":
		return runChild[workload.Result](series{}, s, stderr)
	case s.micro.on():
		err = runParent[micro.Result](microSuite{}, s, stdout, stderr)
	default:
		err = runParent[workload.Result](series{}, s, stdout, stderr)
	}
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
func runParent[R any](su suite[R], s *settings, stdout, stderr io.Writer) error {
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
	if err := su.check(s); err != nil {
		return &inputError{err}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rd, err := createRunDir(s.path)
	if err != nil {
		return err
	}
	env := workload.CollectEnvironment(rd.path)
	env.Seed, env.Sync = s.seed, sync
	var results []*R
	mode := progressMode(stderr)
	var kept []string
	for i, name := range s.engines {
		fmt.Fprintf(stderr, "benchmark-storage: %s (%d of %d), data in %s\n", name, i+1, len(s.engines), filepath.Join(rd.path, name))
		start := time.Now()
		res := runEngine(ctx, su, s, rd, name, mode, stderr)
		if ctx.Err() != nil {
			// The interrupted engine's data is partial: it always goes.
			rd.removeEngine(name)
			return interrupted(s, rd, su.report(env, results), len(results), kept, stdout, stderr)
		}
		if why := su.failure(res); why != "" {
			fmt.Fprintf(stderr, "benchmark-storage: %s FAILED after %s: %s\n", name, roundDuration(time.Since(start)), why)
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
		results = append(results, res)
	}
	finish(s, rd, kept, stderr)
	if err := report(s, su.report(env, results), stdout); err != nil {
		return err
	}
	var names []string
	for i, res := range results {
		if su.failure(res) != "" {
			names = append(names, s.engines[i])
		}
	}
	if len(names) > 0 {
		return fmt.Errorf("%s failed; the report shows why", strings.Join(names, ", "))
	}
	return nil
}

// interrupted cleans up after Ctrl-C and still reports the engines that
// finished.
func interrupted(s *settings, rd *runDir, rep renderer, finished int, kept []string, stdout, stderr io.Writer) error {
	finish(s, rd, kept, stderr)
	if finished > 0 {
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

// report prints the results and writes -out.
func report(s *settings, rep renderer, stdout io.Writer) error {
	err := writeReport(stdout, rep, s.format)
	if s.out != "" {
		err = errors.Join(err, writeOut(s.out, rep, s.outFormat))
	}
	return err
}

// progressMode draws bars only for a person watching a terminal.
func progressMode(stderr io.Writer) string {
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "bar"
	}
	return "log"
}
