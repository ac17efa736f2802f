package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
	"golang.org/x/term"
)

// run is the whole program: main only exits with its status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "compare" {
		return runCompare(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "merge" {
		return runMerge(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "history" {
		return runHistory(args[1:], stdout, stderr)
	}
	if len(args) == 1 && (args[0] == "-version" || args[0] == "--version") {
		tool := harness.ThisTool().String()
		if tool == "" {
			tool = "unknown build"
		}
		fmt.Fprintf(stdout, "benchmark-storage: %s, %s\n", tool, runtime.Version())
		return exitOK
	}
	if slices.Contains(args, childJobFlag) {
		return runAsChild(os.Stdin, stderr)
	}
	workload := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		// A workload's name first is its command: "mixed -duration 20s"
		// is "-workload mixed -duration 20s", and its -h lists the
		// command's flags and the workload's own alone.
		if w, err := suite.Lookup(args[0]); err == nil {
			if slices.ContainsFunc(args[1:], func(a string) bool {
				return strings.TrimLeft(a, "-") == "workload" || strings.HasPrefix(strings.TrimLeft(a, "-"), "workload=")
			}) {
				fmt.Fprintf(stderr, "benchmark-storage: %s and -workload: name the workload once, as the command (benchmark-storage %s ...) or with -workload\n", args[0], args[0])
				return exitBadInput
			}
			workload = w.Name()
			args = append([]string{"-workload", workload}, args[1:]...)
		}
	}
	s, err := parseFlags(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage(stderr, workload)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		return exitBadInput
	default:
		for _, l := range append(s.leftOut, s.lacks...) {
			fmt.Fprintf(stderr, "benchmark-storage: %s\n", l)
		}
		err = runParent(s, stdout, stderr)
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

// runAsChild does the job its parent wrote to stdin, once it is sure a
// parent started it.
func runAsChild(stdin io.Reader, stderr io.Writer) int {
	if err := startedByParent(); err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		return exitBadInput
	}
	s, err := readJob(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
		return exitBadInput
	}
	supervise.InitChild()
	harness.SetSamplePeriod(s.memorySample)
	if s.child.role != roleRun {
		return runRole(s, stderr)
	}
	return runChild(s, stderr)
}

// runParent checks everything it can, then runs each engine in its own
// child process, one after another, and reports them side by side.
func runParent(s *settings, stdout, stderr io.Writer) error {
	// Every mistake in the input shows before anything is created
	// (parseFlags resolved the engines' options).
	// Sync is a shared key, so it is the same for every engine.
	sync := s.specs[s.engines[0]].Options.Sync
	if s.memory > 0 {
		removeStaleGroups(stderr)
	}
	w := s.workload
	if err := w.Prepare(s.path); err != nil {
		return &inputError{err}
	}
	if err := checkDatasets(s); err != nil {
		return err
	}
	out, err := openOut("-out", s.out)
	if err != nil {
		return err
	}
	defer out.close()
	latencyLog, err := openOut("-latency-log", s.latencyLog)
	if err != nil {
		return err
	}
	defer latencyLog.close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	reportStaleRunDirs(s.path, stderr)
	rd, err := createRunDir(s.path)
	if err != nil {
		return err
	}
	env := harness.CollectEnvironment(rd.path)
	env.Seed, env.Sync, env.MemoryLimit = s.common.Seed, sync, s.memory
	if s.memorySample != harness.DefaultSamplePeriod {
		env.MemorySample = s.memorySample
	}
	env.Only(s.engines)
	runID := newRunID(env.Start)
	s.runID = runID
	var results []*suite.Result
	mode := progressMode(stderr)
	var kept []string
	// With -count, the engines take turns, so that a change of the
	// machine's state over time spreads over all of them rather than
	// favouring the first.
	total := s.count * len(s.engines)
	for k := 1; k <= s.count; k++ {
		for i, name := range s.engines {
			dir := name
			what := fmt.Sprintf("%s (%d of %d)", name, i+1, len(s.engines))
			if s.count > 1 {
				dir = fmt.Sprintf("%s.%d", name, k)
				what = fmt.Sprintf("%s run %d of %d (%d of %d)", name, k, s.count, (k-1)*len(s.engines)+i+1, total)
			}
			fmt.Fprintf(stderr, "benchmark-storage: %s, data in %s\n", what, filepath.Join(rd.path, dir))
			start := time.Now()
			res, log := runEngine(ctx, s, rd, name, dir, k, mode, stderr)
			if ctx.Err() != nil {
				// The interrupted engine's data is partial: it always goes.
				rd.removeEngine(dir)
				for _, n := range s.engines[i:] {
					env.Interrupted = append(env.Interrupted, n)
				}
				if k < s.count {
					env.Interrupted = append(env.Interrupted, fmt.Sprintf("runs %d to %d of every engine", k+1, s.count))
				}
				return interrupted(s, out, latencyLog, rd, w.Report(runID, env, results), len(results), kept, stdout, stderr)
			}
			if why := res.Failure(); why != "" {
				if log != "" {
					why += " (the engine process's output is in " + log + ")"
					fail(res, why) // the report says where, too
				}
				// A run the benchmark ended (its outcome) was stopped, not
				// failed: its error says how.
				verb := "FAILED"
				if res.Fields().Header.Outcome != "" {
					verb = "ended"
				}
				fmt.Fprintf(stderr, "benchmark-storage: %s %s after %s: %s\n", name, verb, harness.Round(time.Since(start)), why)
			} else {
				fmt.Fprintf(stderr, "benchmark-storage: %s done in %s\n", name, harness.Round(time.Since(start)))
			}
			if note := reused(res); note != "" {
				fmt.Fprintf(stderr, "benchmark-storage: %s: write step not run: %s\n", name, note)
			}
			if s.keep {
				kept = append(kept, dir)
			} else if err := rd.removeEngine(dir); err != nil {
				fmt.Fprintf(stderr, "benchmark-storage: %s: remove data: %v\n", name, err)
			}
			// Write back what is still dirty now, so that the next engine
			// does not pay for this one's writeback.
			syscall.Sync()
			env.Ran(name, *res.Fields().Header)
			results = append(results, res)
		}
	}
	finish(s, rd, kept, stderr)
	if err := writeReports(s, out, latencyLog, w.Report(runID, env, results), stdout); err != nil {
		return err
	}
	var names []string
	for i, res := range results {
		if name := s.engines[i%len(s.engines)]; res.Failure() != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) > 0 {
		return fmt.Errorf("%s did not pass; the report shows why", strings.Join(names, ", "))
	}
	return nil
}

// interrupted cleans up after Ctrl-C and still reports the engines that
// finished.
func interrupted(s *settings, out, latencyLog *outFile, rd *runDir, rep report.Renderer, finished int, kept []string, stdout, stderr io.Writer) error {
	finish(s, rd, kept, stderr)
	if finished > 0 {
		if err := writeReports(s, out, latencyLog, rep, stdout); err != nil {
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
	if err := rd.release(); err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %v\n", err)
	}
	for _, dir := range kept {
		fmt.Fprintf(stderr, "benchmark-storage: kept %s data in %s\n", dir, filepath.Join(rd.path, dir))
	}
}

// newRunID names a run by when it started and a random suffix, so that
// the results of runs stacked together (CSV) can be told apart and sort
// by time: 20240620T120000Z-3f9a1c.
func newRunID(start time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail on Linux
	return start.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// writeReports prints the results and writes -out and -latency-log.
func writeReports(s *settings, out, latencyLog *outFile, rep report.Renderer, stdout io.Writer) error {
	format := s.format
	if format == report.FormatText && !s.verbose {
		format = report.FormatBrief
	}
	err := report.Write(stdout, rep, format)
	if out != nil {
		err = errors.Join(err, out.write(func(w io.Writer) error { return report.Write(w, rep, s.outFormat) }))
	}
	if l, ok := rep.(report.LatencyLogger); ok && latencyLog != nil {
		err = errors.Join(err, latencyLog.write(l.WriteLatencyLog))
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
