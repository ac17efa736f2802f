package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/crash"
	"github.com/tsbench/storage/workload/harness"
)

// crashSuite is the crash check (-workload crash). The engine's child
// process runs the rounds: it starts a writer process, kills it at the
// seeded moment, and starts a reader process that reopens the store and
// reads it back, -kills times in the same directory.
type crashSuite struct{}

var _ suite[crash.Result] = crashSuite{}

// crashRefuses are the flags the crash check does not take: the
// time-series sizes, -settle, -reuse-iterator, -count and the micro
// benchmarks'.
var crashRefuses = append([]string{"points", "series", "settle", "reuse-iterator", "count", "benchmarks"}, microOnlyFlags...)

// checkCrashMode refuses what the crash check does not take and sets its
// defaults: sync batch, batches of crash.DefaultBatch.
func checkCrashMode(s *settings, set map[string]bool) error {
	for _, n := range crashRefuses {
		if set[n] {
			return inputErrorf("-%s is not a setting of -workload crash, which takes -kills, -batch, -sync and the engine settings: drop -%s", n, n)
		}
	}
	if s.format == "gobench" {
		return inputErrorf("-format gobench is for the micro benchmarks: choose table, markdown, csv, json or html")
	}
	if !set["batch"] {
		s.batch = crash.DefaultBatch
	}
	switch {
	case s.kills < 1 || s.kills > crash.MaxKills:
		return inputErrorf("-kills %d: use 1 to %d", s.kills, crash.MaxKills)
	case s.batch > crash.MaxBatch:
		return inputErrorf("-batch %d is above the maximum of %d entries per batch of the crash check", s.batch, crash.MaxBatch)
	}
	if !set["sync"] {
		s.sync = engine.SyncBatch
	}
	if err := crashConfig(s).Validate(); err != nil {
		return inputErrorf("%v", strings.TrimPrefix(err.Error(), crash.ErrInvalidConfig.Error()+": "))
	}
	return nil
}

// crashConfig is the check every engine of the run gets.
func crashConfig(s *settings) crash.Config {
	return crash.Config{
		Kills:     s.kills,
		Batch:     int(s.batch), // bounded by checkCrashMode
		ValueSize: crash.DefaultValueSize,
		Seed:      s.seed,
		Window:    crash.DefaultWindow,
	}
}

func (crashSuite) check(s *settings) error { return crashConfig(s).Validate() }

// run runs the rounds. A round that cannot run (the writer cannot open
// the engine) ends the check with what was found so far.
func (crashSuite) run(s *settings, name string, opts engine.Options, p *progress) (*crash.Result, error) {
	cfg := crashConfig(s)
	res := &crash.Result{Config: cfg}
	var t crash.Tally
	// Processes the writer started (etcd's members) become this
	// process's children when it dies, so that the reader can wait
	// until they are gone too.
	if err := becomeSubreaper(); err != nil {
		return res, err
	}
	var err error
	p.unit = "kills"
	p.Begin("kill and reopen", int64(cfg.Kills))
	for round := 1; round <= cfg.Kills; round++ {
		var r crash.Round
		if r, err = crashRound(s, name, cfg, round); err != nil {
			err = fmt.Errorf("kill %d: %w", round, err)
			break
		}
		t.Add(r)
		p.Update(int64(round))
		fmt.Fprintf(p, "kill %d: %v", round, r)
	}
	p.End()
	res.Crash = t.Finish()
	res.Options, err = effective(name, opts, err)
	return res, err
}

// crashRound runs one writer until it is killed, then one reader.
func crashRound(s *settings, name string, cfg crash.Config, round int) (crash.Round, error) {
	var r crash.Round
	acks := newAckReader()
	w, err := startChild(context.Background(), newJob(s, roleCrashWriter, name, s.child.dir, "log"), nil, s.stall, acks)
	if err != nil {
		return r, err
	}
	exited := make(chan error, 1)
	go func() { exited <- w.wait() }()
	wait := s.stall
	if wait == 0 {
		wait = defaultStall
	}
	writerFailed := func(err error) error {
		if msg := acks.error(); msg != "" {
			return fmt.Errorf("writer: %s", msg)
		}
		why := describeExit(err)
		if line := crashLine(w.output.Bytes()); line != "" {
			why += ": " + line
		}
		return fmt.Errorf("writer process %s", why)
	}
	select {
	case <-acks.ready:
	case err := <-exited:
		return r, writerFailed(err)
	case <-time.After(wait):
		w.kill()
		<-exited
		return r, fmt.Errorf("writer did not open the engine within %v", wait)
	}
	select {
	case <-time.After(cfg.KillDelay(round)):
		w.kill()
		<-exited
	case err := <-exited:
		return r, writerFailed(err)
	}
	r.Acks, r.Acked = acks.counts()
	if err := reapOrphans(); err != nil {
		return r, err
	}

	rd, err := startChild(context.Background(), newJob(s, roleCrashReader, name, s.child.dir, "log"), nil, s.stall, nil)
	if err != nil {
		return r, err
	}
	rerr := rd.wait()
	var out readerResult
	switch {
	case errors.Is(rerr, errStalled):
		r.ReopenErr = fmt.Errorf("reader made no progress for %v", s.stall)
	case json.Unmarshal(rd.out, &out) != nil:
		why := describeExit(rerr)
		if line := crashLine(rd.output.Bytes()); line != "" {
			why += ": " + line
		}
		r.ReopenErr = fmt.Errorf("reader process %s", why)
	case out.Error != "":
		r.ReopenErr = errors.New(out.Error)
	default:
		r.Scan, r.Recovery, r.Checked = out.Scan, out.Open, out.Checked
	}
	return r, nil
}

// readerResult is what a reader process sends its parent.
type readerResult struct {
	Open    time.Duration `json:"open_ns"`
	Checked bool          `json:"checked"`
	Scan    *crash.Scan   `json:"scan,omitempty"`
	Error   string        `json:"error,omitempty"`
}

// runCrashReader reopens the store, runs the engine's own check, reads
// every entry back and sends what it found.
func runCrashReader(s *settings) int {
	var out readerResult
	err := func() error {
		opts, err := engineOptions(s, s.engines[0])
		if err != nil {
			return err
		}
		start := time.Now()
		db, err := engine.Open(s.engines[0], s.child.dir, &opts)
		if err != nil {
			return fmt.Errorf("open: %w", err)
		}
		out.Open = time.Since(start)
		if err := engine.Check(db); err == nil {
			out.Checked = true
		} else if !errors.Is(err, engine.ErrNotSupported) {
			db.Close()
			return fmt.Errorf("integrity check: %w", err)
		}
		scan, err := crash.Verify(db, crashConfig(s))
		if err != nil {
			db.Close()
			return fmt.Errorf("read back: %w", err)
		}
		out.Scan = &scan
		if err := db.Close(); err != nil {
			return fmt.Errorf("close: %w", err)
		}
		return nil
	}()
	if err != nil {
		out.Error = err.Error()
	}
	if err := sendResult(out); err != nil {
		return exitFailed
	}
	return exitOK
}

// runCrashWriter opens the engine, says it is ready, and commits batches,
// acknowledging each, until it is killed.
func runCrashWriter(s *settings) int {
	pipe := resultOut()
	send := func(format string, args ...any) error {
		_, err := fmt.Fprintf(pipe, format+"\n", args...)
		return err
	}
	err := func() error {
		opts, err := engineOptions(s, s.engines[0])
		if err != nil {
			return err
		}
		db, err := engine.Open(s.engines[0], s.child.dir, &opts)
		if err != nil {
			return fmt.Errorf("open: %w", err)
		}
		// Never closed: the process is killed while it writes.
		if err := send("ready"); err != nil {
			return err
		}
		return crash.Write(db, crashConfig(s), func(b uint64) error { return send("ack %d", b) })
	}()
	send("error %s", strings.ReplaceAll(err.Error(), "\n", " "))
	return exitFailed
}

// ackReader reads a writer's messages as they come: "ready", then "ack
// N" for each batch whose commit returned, or "error TEXT".
type ackReader struct {
	ready   chan struct{}
	mu      sync.Mutex
	partial []byte
	n       int64
	top     uint64 // one more than the highest batch acknowledged
	err     string
}

func newAckReader() *ackReader { return &ackReader{ready: make(chan struct{})} }

func (a *ackReader) Write(b []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.partial = append(a.partial, b...)
	for {
		i := bytes.IndexByte(a.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := string(a.partial[:i])
		a.partial = a.partial[i+1:]
		switch verb, arg, _ := strings.Cut(line, " "); verb {
		case "ready":
			close(a.ready)
		case "ack":
			if n, err := strconv.ParseUint(arg, 10, 64); err == nil {
				a.n++
				a.top = max(a.top, n+1)
			}
		case "error":
			a.err = arg
		}
	}
}

func (a *ackReader) counts() (int64, uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n, a.top
}

func (a *ackReader) error() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

func (crashSuite) label(res *crash.Result, name string, repeat int, err error) {
	res.Engine, res.Repeat = name, repeat
	if res.Version == "" {
		res.Version = engine.Version(name)
	}
	if res.Error == "" {
		res.Error = errorText(err)
	}
}

func (crashSuite) failure(res *crash.Result) string { return crash.Failure(res) }

func (crashSuite) fail(res *crash.Result, why string) { res.Error = why }

func (crashSuite) report(runID string, env harness.Environment, results []*crash.Result) renderer {
	return &crash.Report{RunID: runID, Env: env, Results: results}
}

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// becomeSubreaper makes the orphans of this process's descendants its
// children rather than init's.
func becomeSubreaper() error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return fmt.Errorf("become the subreaper of the writer's processes: %w", e)
	}
	return nil
}

// reapOrphans waits until every child of this process has exited, and
// kills those still there after childStopDelay. It runs between a
// writer's death and the reader's start, when the only children are
// processes the writer left behind, which its death has signalled
// already (a process an engine starts dies with its parent).
func reapOrphans() error {
	deadline := time.Now().Add(childStopDelay)
	for {
		kids := measure.Children()
		if len(kids) == 0 {
			return nil
		}
		for _, pid := range kids {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
		if time.Now().After(deadline.Add(childStopDelay)) {
			return fmt.Errorf("processes %v the killed writer left behind do not exit", kids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (crashSuite) reused(*crash.Result) string { return "" }
