package crash

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/suite"
)

// killRound runs one writer until it is killed, then one reader. The
// kill's moment counts from the first acknowledged batch.
func killRound(e *suite.Engine, cfg Config, round int) (Round, error) {
	var r Round
	acks := newAckReader()
	first := acks.after(1)
	w, err := startWriter(e, e.Dir, acks)
	if err != nil {
		return r, err
	}
	select {
	case <-first:
	case err := <-w.exited:
		return r, w.failed(err)
	case <-time.After(writerWait(e)):
		w.stop()
		return r, fmt.Errorf("writer acknowledged no batch within %v of opening the engine", writerWait(e))
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
	return r, reopen(e, e.Dir, &r)
}

// writerProcess is a running writer process and what it acknowledged.
type writerProcess struct {
	p      *supervise.Child
	acks   *ackReader
	exited chan error // receives its exit
}

// startWriter starts a writer in dir and waits until it has opened the
// engine.
func startWriter(e *suite.Engine, dir string, acks *ackReader) (*writerProcess, error) {
	p, err := e.Spawn(roleWriter, dir, supervise.Options{Results: acks, Stall: e.Stall})
	if err != nil {
		return nil, err
	}
	w := &writerProcess{p: p, acks: acks, exited: make(chan error, 1)}
	go func() { w.exited <- p.Wait() }()
	select {
	case <-acks.ready:
		return w, nil
	case err := <-w.exited:
		return nil, w.failed(err)
	case <-time.After(writerWait(e)):
		w.stop()
		return nil, fmt.Errorf("writer did not open the engine within %v", writerWait(e))
	}
}

// writerWait is how long a writer may take to open the engine, or to
// reach the batch a power cut waits for, and a reader to reopen the store
// and read it back.
func writerWait(e *suite.Engine) time.Duration {
	if e.Stall == 0 {
		return suite.DefaultStall
	}
	return e.Stall
}

// stop kills the writer and waits until it is gone.
func (w *writerProcess) stop() {
	w.p.Kill()
	<-w.exited
}

// failed is the error of a writer that exited on its own with err.
func (w *writerProcess) failed(err error) error {
	if msg := w.acks.error(); msg != "" {
		return fmt.Errorf("writer: %s", msg)
	}
	return fmt.Errorf("writer process %s", w.p.Why(err))
}

// reopen runs a reader in dir and records in r what it found. Its error
// is the reader's failure to start.
func reopen(e *suite.Engine, dir string, r *Round) error {
	// A reader can spin instead of stalling, which the stall watchdog
	// does not see (a Kyoto Cabinet reader after a power cut was found at
	// full CPU 13 minutes on); a reopen and a read of a store of this size
	// take seconds, so it gets the round's wait and no more.
	rd, err := e.Spawn(roleReader, dir, supervise.Options{Stall: e.Stall, MaxTime: writerWait(e)})
	if err != nil {
		return err
	}
	rerr := rd.Wait()
	var out readerResult
	switch {
	case errors.Is(rerr, supervise.ErrStalled):
		r.ReopenErr = fmt.Errorf("reader made no progress for %v", e.Stall)
	case errors.Is(rerr, supervise.ErrMaxTime):
		r.ReopenErr = fmt.Errorf("reader did not reopen and read the store within %v", writerWait(e))
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
	Scan    *Scan         `json:"scan,omitempty"`
	Error   string        `json:"error,omitempty"`
}

// runReader reopens the store, runs the engine's own check, reads
// every entry back and sends what it found.
func runReader(e *suite.Engine, cfg Config) error {
	var out readerResult
	err := func() error {
		start := time.Now()
		db, err := e.Open(e.Dir)
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
		scan, err := Verify(db, cfg)
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
	return supervise.SendResult(out)
}

// SkipSync makes the writer open its engine under sync none whatever its
// job says: an engine that skips its fsyncs, which a test sets in the
// writer's process to prove that the power-loss check finds it.
var SkipSync bool

// runWriter opens the engine, says it is ready, and commits batches,
// acknowledging each, until it is killed. Its error, also sent on the
// pipe, is why it stopped.
func runWriter(e *suite.Engine, cfg Config) error {
	pipe := supervise.ResultPipe()
	send := func(format string, args ...any) error {
		_, err := fmt.Fprintf(pipe, format+"\n", args...)
		return err
	}
	err := func() error {
		opts := e.Options
		if SkipSync {
			opts.Sync = engine.SyncNone
		}
		db, err := engine.Open(e.Name, e.Dir, &opts)
		if err != nil {
			return fmt.Errorf("open: %w", err)
		}
		// Never closed: the process is killed while it writes.
		if err := send("ready"); err != nil {
			return err
		}
		w := Writer{
			Ack: func(b uint64) error { return send("ack %d", b) },
			Memory: func(m measure.MemoryPeaks) error {
				j, err := json.Marshal(m)
				if err != nil {
					return err
				}
				return send("memory %s", j)
			},
		}
		return w.Write(db, cfg)
	}()
	send("error %s", strings.ReplaceAll(err.Error(), "\n", " "))
	return err
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
func (a *ackReader) round() Round {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Round{Acks: a.n, Acked: a.top, From: a.from, Memory: a.memory}
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

// reapOrphans waits until the processes a killed writer left behind
// have exited (supervise.ReapOrphans).
func reapOrphans() error {
	if left := supervise.ReapOrphans(); len(left) > 0 {
		return fmt.Errorf("processes %v the killed writer left behind do not exit", left)
	}
	return nil
}
