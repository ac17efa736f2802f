package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/crash"
	"github.com/tsbench/storage/workload/harness"
)

// crashSuite is the crash check (-workload crash). The engine's child
// process runs the rounds: it starts a writer process, kills it at the
// seeded moment (or cuts the power under it, -fault powercut: see
// powerMount), and starts a reader process that reopens the store and
// reads it back, -kills times in the same directory.
type crashSuite struct{}

// crashRefuses are the flags the crash check does not take: the
// time-series sizes, -settle, -reuse-iterator, -count and the micro
// benchmarks'.
var crashRefuses = append([]string{"points", "series", "settle", "reuse-iterator", "count", "benchmarks"}, microOnlyFlags...)

// checkCrashMode refuses what the crash check does not take and sets its
// defaults: sync batch, batches of crash.DefaultBatch.
func checkCrashMode(s *settings, set map[string]bool) error {
	if err := refuseFlags(s, set, crashRefuses, "-kills, -fault, -batch, -sync and the engine settings"); err != nil {
		return err
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
	if !slices.Contains(crash.Faults, s.fault) {
		return inputErrorf("-fault %q: use %s", s.fault, strings.Join(crash.Faults, ", "))
	}
	if !set["sync"] {
		s.sync = engine.SyncBatch
	}
	return invalidConfig(crashConfig(s).Validate(), crash.ErrInvalidConfig)
}

// crashConfig is the check every engine of the run gets.
func crashConfig(s *settings) crash.Config {
	return crash.Config{
		Kills:      s.kills,
		Batch:      int(s.batch), // bounded by checkCrashMode
		ValueSize:  crash.DefaultValueSize,
		Seed:       s.seed,
		Window:     crash.DefaultWindow,
		Fault:      s.fault,
		CutBatches: crash.DefaultCutBatches,
	}
}

// check also makes sure, for a power cut, that FUSE works here, and
// detaches the mounts a killed run left in -path.
func (crashSuite) check(s *settings) error {
	cfg := crashConfig(s)
	if err := cfg.Validate(); err != nil {
		return err
	}
	if !cfg.PowerCut() {
		return nil
	}
	return checkPowercut(s.fault, s.path)
}

// run runs the rounds. A round that cannot run (the writer cannot open
// the engine) ends the check with what was found so far.
func (crashSuite) run(s *settings, name string, opts engine.Options, p *progress) (res *crash.Result, err error) {
	cfg := crashConfig(s)
	res = &crash.Result{Config: cfg}
	t := crash.Tally{Stats: crash.Stats{LossAllowed: cfg.PowerCut() && opts.Sync != engine.SyncBatch}}
	// Processes the writer started (etcd's members) become this
	// process's children when it dies, so that the reader can wait
	// until they are gone too.
	if err := supervise.BecomeSubreaper(); err != nil {
		return res, fmt.Errorf("become the subreaper of the writer's processes: %w", err)
	}
	round, what := killRound, "kill"
	if cfg.PowerCut() {
		m, err := newPowerMount(s.child.dir, cfg)
		if err != nil {
			return res, err
		}
		defer func() { err = errors.Join(err, m.close()) }()
		round = m.round
		what = "cut"
	}
	p.unit = what + "s"
	p.Begin(what+" and reopen", int64(cfg.Kills))
	for i := 1; i <= cfg.Kills; i++ {
		var r crash.Round
		if r, err = round(s, name, cfg, i); err != nil {
			err = fmt.Errorf("%s %d: %w", what, i, err)
			break
		}
		t.Add(r)
		p.Update(int64(i))
		fmt.Fprintf(p, "%s %d: %v", what, i, r)
	}
	p.End()
	res.Crash = t.Finish()
	res.Options, err = effective(name, opts, err)
	return res, err
}

// killRound runs one writer until it is killed, then one reader.
func killRound(s *settings, name string, cfg crash.Config, round int) (crash.Round, error) {
	var r crash.Round
	w, err := startWriter(s, name, s.child.dir, newAckReader())
	if err != nil {
		return r, err
	}
	select {
	case <-time.After(cfg.KillDelay(round)):
		w.stop()
	case err := <-w.exited:
		return r, w.failed(err)
	}
	r = w.acks.round()
	if err := reapOrphans(); err != nil {
		return r, err
	}
	return r, reopen(s, name, s.child.dir, &r)
}

// crashWriter is a running writer process and what it acknowledged.
type crashWriter struct {
	p      *supervise.Child
	acks   *ackReader
	exited chan error // receives its exit
}

// startWriter starts a writer in dir and waits until it has opened the
// engine.
func startWriter(s *settings, name, dir string, acks *ackReader) (*crashWriter, error) {
	p, err := supervise.Start(context.Background(), childCommand(newJob(s, roleCrashWriter, name, dir, "log")), supervise.Options{Results: acks, Stall: s.stall})
	if err != nil {
		return nil, err
	}
	w := &crashWriter{p: p, acks: acks, exited: make(chan error, 1)}
	go func() { w.exited <- p.Wait() }()
	select {
	case <-acks.ready:
		return w, nil
	case err := <-w.exited:
		return nil, w.failed(err)
	case <-time.After(writerWait(s)):
		w.stop()
		return nil, fmt.Errorf("writer did not open the engine within %v", writerWait(s))
	}
}

// writerWait is how long a writer may take to open the engine, or to
// reach the batch a power cut waits for.
func writerWait(s *settings) time.Duration {
	if s.stall == 0 {
		return defaultStall
	}
	return s.stall
}

// stop kills the writer and waits until it is gone.
func (w *crashWriter) stop() {
	w.p.Kill()
	<-w.exited
}

// failed is the error of a writer that exited on its own with err.
func (w *crashWriter) failed(err error) error {
	if msg := w.acks.error(); msg != "" {
		return fmt.Errorf("writer: %s", msg)
	}
	return fmt.Errorf("writer process %s", w.p.Why(err))
}

// reopen runs a reader in dir and records in r what it found. Its error
// is the reader's failure to start.
func reopen(s *settings, name, dir string, r *crash.Round) error {
	rd, err := supervise.Start(context.Background(), childCommand(newJob(s, roleCrashReader, name, dir, "log")), supervise.Options{Stall: s.stall})
	if err != nil {
		return err
	}
	rerr := rd.Wait()
	var out readerResult
	switch {
	case errors.Is(rerr, supervise.ErrStalled):
		r.ReopenErr = fmt.Errorf("reader made no progress for %v", s.stall)
	case json.Unmarshal(rd.Result(), &out) != nil:
		r.ReopenErr = fmt.Errorf("reader process %s", rd.Why(rerr))
	case out.Error != "":
		r.ReopenErr = errors.New(out.Error)
	default:
		r.Scan, r.Recovery, r.Checked = out.Scan, out.Open, out.Checked
	}
	return nil
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
	if err := supervise.SendResult(out); err != nil {
		return exitFailed
	}
	return exitOK
}

// skipSync makes the writer open its engine under sync none whatever
// its job says: an engine that skips its fsyncs, which a test sets in
// the writer's process to prove that the power-loss check finds it.
var skipSync bool

// runCrashWriter opens the engine, says it is ready, and commits batches,
// acknowledging each, until it is killed.
func runCrashWriter(s *settings) int {
	pipe := supervise.ResultPipe()
	send := func(format string, args ...any) error {
		_, err := fmt.Fprintf(pipe, format+"\n", args...)
		return err
	}
	err := func() error {
		opts, err := engineOptions(s, s.engines[0])
		if err != nil {
			return err
		}
		if skipSync {
			opts.Sync = engine.SyncNone
		}
		db, err := engine.Open(s.engines[0], s.child.dir, &opts)
		if err != nil {
			return fmt.Errorf("open: %w", err)
		}
		// Never closed: the process is killed while it writes.
		if err := send("ready"); err != nil {
			return err
		}
		w := crash.Writer{
			Ack: func(b uint64) error { return send("ack %d", b) },
			Memory: func(m measure.MemoryPeaks) error {
				j, err := json.Marshal(m)
				if err != nil {
					return err
				}
				return send("memory %s", j)
			},
		}
		return w.Write(db, crashConfig(s))
	}()
	send("error %s", strings.ReplaceAll(err.Error(), "\n", " "))
	return exitFailed
}

// ackReader reads a writer's messages as they come: "ready", then "ack
// N" for each batch whose commit returned, "memory JSON" with the peaks of
// its memory by kind whenever one grew, or "error TEXT".
type ackReader struct {
	ready   chan struct{}
	mu      sync.Mutex
	partial []byte
	n       int64
	top     uint64 // one more than the highest batch acknowledged
	from    uint64 // the first batch acknowledged
	err     string
	// memory is the writer's last report of its memory peaks.
	memory *measure.MemoryPeaks
	// enough is closed when n reaches target (after).
	target int64
	enough chan struct{}
	// prev and last are when the last two acknowledgements came.
	prev, last time.Time
}

func newAckReader() *ackReader {
	return &ackReader{ready: make(chan struct{}), enough: make(chan struct{})}
}

// after returns a channel closed once n acknowledgements came. Call it
// before the writer starts.
func (a *ackReader) after(n int64) <-chan struct{} {
	a.target = n
	return a.enough
}

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
				if a.n == 0 {
					a.from = n // batches are acknowledged in order
				}
				a.n++
				a.top = max(a.top, n+1)
				a.prev, a.last = a.last, time.Now()
				if a.n == a.target {
					close(a.enough)
				}
			}
		case "memory":
			var m measure.MemoryPeaks
			if json.Unmarshal([]byte(arg), &m) == nil {
				a.memory = &m
			}
		case "error":
			a.err = arg
		}
	}
}

// round is what was acknowledged so far, as a round counts it.
func (a *ackReader) round() crash.Round {
	a.mu.Lock()
	defer a.mu.Unlock()
	return crash.Round{Acks: a.n, Acked: a.top, From: a.from, Memory: a.memory}
}

// lastBatch is the time between the last two acknowledgements: how long
// the last batch took to commit.
func (a *ackReader) lastBatch() time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.prev.IsZero() {
		return 0
	}
	return a.last.Sub(a.prev)
}

func (a *ackReader) error() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// start is an empty result: a crash check whose engine process died
// reports no parameters.
func (crashSuite) start(*settings, string) *crash.Result { return new(crash.Result) }

func (crashSuite) fields(res *crash.Result) resultFields {
	return resultFields{header: &res.Header, err: &res.Error}
}

func (crashSuite) failure(res *crash.Result) string { return crash.Failure(res) }

func (crashSuite) report(runID string, env harness.Environment, results []*crash.Result) renderer {
	return &crash.Report{RunID: runID, Env: env, Results: results}
}

// reapOrphans waits until the processes a killed writer left behind
// have exited (supervise.ReapOrphans).
func reapOrphans() error {
	if left := supervise.ReapOrphans(); len(left) > 0 {
		return fmt.Errorf("processes %v the killed writer left behind do not exit", left)
	}
	return nil
}
