package crash

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

const (
	// downBatches is how many batches the writer gets acknowledged with
	// a member down before it is restarted: proof that the cluster
	// served writes without it, and writes it must catch up on.
	downBatches = 20
	// retryWait is how long the member check's writer waits before it
	// commits a batch again after a failed Commit: while a new leader is
	// elected, or the coordinator notices the member is gone.
	retryWait = 100 * time.Millisecond
	// stuckAfter ends the member check when no Commit succeeded for this
	// long: the cluster lost more than one member can explain.
	stuckAfter = 2 * time.Minute
)

// memberCheck is the check of -kill member, run in the engine's process:
// it opens the engine, which starts its local cluster, and commits
// batches from a goroutine of its own (memberWriter) while each round
// kills one member (Config.Victim) at Config.KillDelay, lets downBatches
// more batches be acknowledged without it, restarts it (which waits
// until it caught up), and then, with the writer paused, reads every
// batch back through the cluster and through the restarted member alone
// (engine.Members.Alone). A batch missing or partial in either read counts
// against the round; Round.Recovery is the restart and catch-up.
//
// It records in h the engine that ran (suite.Engine.Record).
func memberCheck(e *suite.Engine, cfg Config, t *Tally, h *harness.Header, done func(int, Round)) (err error) {
	db, err := e.Open(e.Dir)
	if err != nil {
		h.Options = e.Effective
		return err
	}
	defer suite.Close(db, &err)
	defer func() { err = e.Record(h, db, err) }()
	ms, ok := engine.BackendAs[engine.Members](db)
	if !ok || ms.Members() < 2 {
		return fmt.Errorf("%w: -kill member kills a member of the engine's own local cluster: %s runs none of two members or more (etcd and cassandra do)", ErrInvalidConfig, e.Name)
	}
	w, err := startMemberWriter(db, cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, w.stop()) }()
	for i := 1; i <= cfg.Kills; i++ {
		r, err := memberRound(db, ms, w, cfg, i)
		if err != nil {
			return fmt.Errorf("kill %d: %w", i, err)
		}
		t.Add(r)
		done(i, r)
		if r.ReopenErr != nil {
			// A member that did not come back leaves a cluster the next
			// kill would take below its quorum.
			return fmt.Errorf("kill %d: %w", i, r.ReopenErr)
		}
	}
	return nil
}

// memberRound runs round i.
func memberRound(db engine.Engine, ms engine.Members, w *memberWriter, cfg Config, i int) (Round, error) {
	from := w.top.Load()
	acks := w.acks.Load()
	if err := w.wait(cfg.KillDelay(i)); err != nil {
		return Round{}, err
	}
	victim := cfg.Victim(i, ms.Members())
	if err := ms.KillMember(victim); err != nil {
		return Round{}, fmt.Errorf("kill member %d: %w", victim, err)
	}
	if err := w.waitAcks(downBatches); err != nil {
		return Round{}, fmt.Errorf("with member %d down: %w", victim, err)
	}
	start := time.Now()
	rerr := ms.RestartMember(victim)
	r := Round{Recovery: time.Since(start), From: from}
	w.pause()
	defer w.resume()
	r.Acks, r.Acked = w.acks.Load()-acks, w.top.Load()
	if rerr != nil {
		r.ReopenErr = fmt.Errorf("restart member %d: %w", victim, rerr)
		return r, nil
	}
	scan, err := Verify(db, cfg)
	if err != nil {
		r.ReopenErr = fmt.Errorf("read back through the cluster: %w", err)
		return r, nil
	}
	err = ms.Alone(victim, func(alone engine.Reader) error {
		s, err := verify(alone, engine.OrderPrefix(db), cfg)
		scan.merge(s)
		return err
	})
	if err != nil {
		r.ReopenErr = fmt.Errorf("read back through member %d alone: %w", victim, err)
		return r, nil
	}
	r.Scan = &scan
	return r, nil
}

// memberWriter commits batches from 0 on, one after another, each until
// it succeeds: a Commit that failed while a member was down is committed
// again, the same values under the same keys.
type memberWriter struct {
	// mu is held through each Commit and its count: pause takes it.
	mu   sync.Mutex
	acks atomic.Int64  // batches acknowledged
	top  atomic.Uint64 // one more than the highest acknowledged
	quit chan struct{}
	done chan error // the writer's end
}

func startMemberWriter(db engine.Engine, cfg Config) (*memberWriter, error) {
	next, err := nextBatch(db, cfg)
	if err != nil {
		return nil, err
	}
	w := &memberWriter{quit: make(chan struct{}), done: make(chan error, 1)}
	w.top.Store(next)
	go func() { w.done <- w.write(db, cfg, next) }()
	return w, nil
}

func (w *memberWriter) write(db engine.Engine, cfg Config, next uint64) error {
	k, v := make([]byte, keySize), make([]byte, cfg.ValueSize)
	bt := db.NewBatch()
	defer bt.Close()
	for b := next; ; b++ {
		putBatch(bt, cfg, b, k, v)
		last := time.Now()
		for {
			select {
			case <-w.quit:
				return nil
			default:
			}
			w.mu.Lock()
			err := bt.Commit()
			if err == nil {
				w.acks.Add(1)
				w.top.Store(b + 1)
			}
			w.mu.Unlock()
			if err == nil {
				break
			}
			if time.Since(last) > stuckAfter {
				return fmt.Errorf("no batch committed for %v: batch %d: %w", stuckAfter, b, err)
			}
			time.Sleep(retryWait)
		}
	}
}

// wait waits for d, or fails if the writer ended.
func (w *memberWriter) wait(d time.Duration) error {
	select {
	case err := <-w.done:
		w.done <- err
		return fmt.Errorf("writer: %w", ended(err))
	case <-time.After(d):
		return nil
	}
}

// waitAcks waits until n more batches are acknowledged.
func (w *memberWriter) waitAcks(n int64) error {
	want := w.acks.Load() + n
	for w.acks.Load() < want {
		if err := w.wait(10 * time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// ended names a writer that stopped without an error.
func ended(err error) error {
	if err == nil {
		return errors.New("stopped")
	}
	return err
}

func (w *memberWriter) pause()  { w.mu.Lock() }
func (w *memberWriter) resume() { w.mu.Unlock() }

// stop ends the writer and returns its error.
func (w *memberWriter) stop() error {
	close(w.quit)
	return <-w.done
}
