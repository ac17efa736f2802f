package steady

import (
	"container/heap"
	"fmt"
	"sync"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/points"
)

// writer sends the batches b = id, id+writers, ... each at its intended
// time on the schedule (batch b at start + b*Batch/Rate), late ones that
// many slots later, and measures each from its intended time: a writer
// held up by the engine sends the next batches at once and their waiting
// counts, as a client of a database under load would see it.
type writer struct {
	r     *runner
	id    int
	late  lateQueue
	keys  []byte
	vals  []byte
	ends  []int
	order []int
	batch engine.Batch // the single engine's, reused
	hist  timed        // from the intended start
	serve timed        // the engine's calls alone
	// stream reads an imported file's points from the writer's next
	// batch, at, into read (fillFile); nil with the model's points.
	stream *points.Stream
	at     int64
	read   points.Batch
}

// timed is a histogram the writer records into and the sampler takes
// from, one interval at a time.
type timed struct {
	mu    sync.Mutex
	cur   *measure.Window
	total *measure.Histogram
	// warm is the warm-up's total once split; nil before.
	warm *measure.Histogram
}

func newTimed() timed {
	return timed{cur: measure.NewWindow(), total: measure.NewHistogram()}
}

func (t *timed) record(d time.Duration) {
	t.mu.Lock()
	t.cur.Record(d)
	t.mu.Unlock()
}

// take moves the interval's durations into the total and into into.
func (t *timed) take(into *measure.Histogram) {
	t.mu.Lock()
	t.cur.AddTo(into)
	t.cur.AddTo(t.total)
	t.cur.Reset()
	t.mu.Unlock()
}

// flush moves the interval's durations into the total alone.
func (t *timed) flush() {
	t.mu.Lock()
	t.cur.AddTo(t.total)
	t.cur.Reset()
	t.mu.Unlock()
}

// split makes every duration so far the warm-up's, the total after it
// starting empty.
func (t *timed) split() {
	t.mu.Lock()
	t.cur.AddTo(t.total)
	t.cur.Reset()
	t.warm, t.total = t.total, measure.NewHistogram()
	t.mu.Unlock()
}

// lateQueue holds the late batches a writer has yet to send, earliest
// slot first.
type lateQueue [][2]int64 // slot, batch

func (q lateQueue) Len() int           { return len(q) }
func (q lateQueue) Less(i, j int) bool { return q[i][0] < q[j][0] }
func (q lateQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *lateQueue) Push(x any)        { *q = append(*q, x.([2]int64)) }
func (q *lateQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// run sends the writer's batches until the schedule is over, the run's
// deadline passes or the run stops.
func (w *writer) run() error {
	r := w.r
	defer func() {
		if w.batch != nil {
			w.batch.Close()
		}
	}()
	if r.file != nil && int64(w.id) < r.batches {
		var err error
		if w.stream, err = r.file.f.Stream(int64(w.id) * r.m.batch); err != nil {
			return fmt.Errorf("writer %d: %w", w.id, err)
		}
		defer w.stream.Close()
		w.at = int64(w.id)
	}
	for k := int64(w.id); k < r.batches; k += int64(r.cfg.Writers) {
		// A late batch goes at this writer's first slot at or after the
		// one it was delayed to.
		for w.late.Len() > 0 && w.late[0][0] <= k {
			x := heap.Pop(&w.late).([2]int64)
			if err := w.send(x[1], k); err != nil || r.stopping() {
				return err
			}
		}
		if d := r.m.lateness(k, r.cfg.Late, r.maxDelay); d > 0 {
			heap.Push(&w.late, [2]int64{k + d, k})
			continue
		}
		if err := w.send(k, k); err != nil || r.stopping() {
			return err
		}
	}
	// Late batches due after the schedule's end are sent at its end.
	for w.late.Len() > 0 {
		x := heap.Pop(&w.late).([2]int64)
		if err := w.send(x[1], min(x[0], r.batches)); err != nil || r.stopping() {
			return err
		}
	}
	return nil
}

// send generates batch b, waits for slot's intended time and commits
// the batch: making it (reading it from a file, say) is outside its
// latency.
func (w *writer) send(b, slot int64) error {
	r := w.r
	logical, err := w.fill(b)
	if err != nil {
		return fmt.Errorf("writer %d: batch %d: %w", w.id, b, err)
	}
	intended := r.start.Add(time.Duration(float64(slot*r.cfg.Batch) / r.cfg.Rate * float64(time.Second)))
	if wait := time.Until(intended); wait > 0 {
		select {
		case <-time.After(wait):
		case <-r.stopped.Done():
			return nil
		}
	} else if time.Now().After(r.deadline) {
		r.halt() // too far behind to finish: the rest counts as unsent
		return nil
	}
	t0 := time.Now()
	err = w.commit()
	now := time.Now()
	if err != nil {
		return fmt.Errorf("writer %d: commit of batch %d: %w", w.id, b, err)
	}
	w.serve.record(now.Sub(t0))
	w.hist.record(now.Sub(intended))
	r.committed(b, int64(len(w.ends)), logical)
	return nil
}

// fill generates batch b into the writer's buffers, or reads it from an
// imported file, a fraction of its points swapped out of order, and
// returns its key and value bytes.
func (w *writer) fill(b int64) (int64, error) {
	r, m := w.r, w.r.m
	w.keys, w.vals, w.ends, w.order = w.keys[:0], w.vals[:0], w.ends[:0], w.order[:0]
	lo := b * m.batch
	if r.file != nil {
		if err := w.fillFile(b); err != nil {
			return 0, err
		}
	} else {
		for i := lo; i < lo+m.batch; i++ {
			id, ts, seq := m.point(i)
			w.keys = m.layout.AppendKey(w.keys, id, ts, seq)
			w.vals = m.values.Encode(w.vals, seq)
			w.ends = append(w.ends, len(w.vals))
			w.order = append(w.order, len(w.order))
		}
	}
	if f := r.cfg.OutOfOrder; f > 0 {
		n := uint64(len(w.order))
		for p := range w.order {
			x := uint64(lo) + uint64(p)
			if m.hash(saltOrder, x) < f {
				q := int(m.hash(saltSwap, x) * float64(n))
				w.order[p], w.order[q] = w.order[q], w.order[p]
			}
		}
	}
	return int64(len(w.keys) + len(w.vals)), nil
}

// commit puts the generated points, in their order, into the engine, or
// into each shard's, and commits.
func (w *writer) commit() error {
	r := w.r
	put := func(b engine.Batch, p int) {
		from := 0
		if p > 0 {
			from = w.ends[p-1]
		}
		b.Put(w.keys[p*tskey.KeySize:(p+1)*tskey.KeySize], w.vals[from:w.ends[p]])
	}
	if r.store.single != nil {
		if w.batch == nil {
			w.batch = r.store.single.NewBatch()
		}
		for _, p := range w.order {
			put(w.batch, p)
		}
		return w.batch.Commit()
	}
	var used []*shard
	defer func() {
		for _, sh := range used {
			sh.users.Done()
		}
	}()
	batches := map[uint64]engine.Batch{}
	for _, p := range w.order {
		_, ts, _, _ := tskey.ParseKey(w.keys[p*tskey.KeySize : (p+1)*tskey.KeySize])
		n := r.store.shardOf(ts)
		b := batches[n]
		if b == nil {
			sh, err := r.store.acquire(n, true)
			if err != nil {
				return err
			}
			if sh == nil {
				return fmt.Errorf("shard %d was dropped before its data was written: lower -late-window", n)
			}
			used = append(used, sh)
			b = sh.db.NewBatch()
			batches[n] = b
		}
		put(b, p)
	}
	for _, b := range batches {
		err := b.Commit()
		if cerr := b.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
