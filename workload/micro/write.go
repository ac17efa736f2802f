package micro

import (
	"fmt"
	"time"
)

// progressEvery is how many operations pass between updates of the
// progress counter, so that its atomic store stays off the hot path.
const progressEvery = 1024

// fill returns the body of a fill: n new entries in the benchmark's
// order, one Put each or in batches, on the empty store Run made.
func (s *Session) fill(b *benchmark, n int64) func(*benchRun) error {
	var order permutation
	if b.fillOrder(s.cfg) == OrderSeq {
		order = sequential(n)
	} else {
		order = shuffled(n, s.seed(b.Name))
	}
	vals := s.values(b.valueSize(s.cfg))
	return func(r *benchRun) error {
		var err error
		if b.batch {
			err = s.putBatches(r, n, order, vals)
		} else {
			err = s.puts(r, n, n, order, vals, 0)
		}
		if err == nil {
			s.st = state{loaded: n, valueSize: vals.size, order: order}
		}
		return err
	}
}

// overwrite returns the body of overwrite: n Puts of new values (the next
// generation) over the loaded entries in a random order, going round
// again if n exceeds them.
func (s *Session) overwrite(n int64) func(*benchRun) error {
	l := s.st.loaded
	order := shuffled(l, s.seed(Overwrite))
	gen := s.st.gen + 1
	vals := s.values(s.st.valueSize)
	return func(r *benchRun) error {
		if err := s.puts(r, n, l, order, vals, gen); err != nil {
			return err
		}
		if n < l {
			s.st.partial = true
			return nil
		}
		s.st.gen, s.st.order, s.st.deleted, s.st.removed = gen, order, false, 0
		return nil
	}
}

// puts writes ops entries with one Put each: position j is entry
// order.at(j mod l) with its value of generation gen. Each Put is timed
// alone; encoding its key is not.
func (s *Session) puts(r *benchRun, ops, l int64, order permutation, vals *values, gen uint64) error {
	keys := s.cfg.KeyType
	key := make([]byte, keys.Size())
	for j := range ops {
		i := order.at(j % l)
		keys.Put(key, i)
		v := vals.value(i, gen)
		t0 := time.Now()
		err := s.db.Put(key, v)
		r.add(time.Since(t0))
		if err != nil {
			r.done.Store(j)
			return fmt.Errorf("put of entry %d: %w", i, err)
		}
		r.bytes += int64(len(key) + len(v))
		if (j+1)%progressEvery == 0 {
			r.done.Store(j + 1)
		}
	}
	r.done.Store(ops)
	return nil
}

// putBatches writes entries [0, n) in order, cfg.Batch per batch. The
// keys of a batch are encoded before its timer starts; the timer covers
// its Batch.Put calls and Commit, one latency sample per batch.
func (s *Session) putBatches(r *benchRun, n int64, order permutation, vals *values) (err error) {
	r.latencyOf = "batch"
	keys := s.cfg.KeyType
	ks, size := keys.Size(), int64(s.cfg.Batch)
	buf := make([]byte, int(size)*ks)
	index := make([]int64, size)
	b := s.db.NewBatch()
	defer func() {
		if cerr := b.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing batch: %w", cerr)
		}
	}()
	for start := int64(0); start < n; start += size {
		m := min(size, n-start)
		for j := range m {
			index[j] = order.at(start + j)
			keys.Put(buf[int(j)*ks:], index[j])
		}
		t0 := time.Now()
		for j := range m {
			b.Put(buf[int(j)*ks:int(j+1)*ks], vals.value(index[j], 0))
		}
		err := b.Commit()
		r.add(time.Since(t0))
		if err != nil {
			r.done.Store(start)
			return fmt.Errorf("commit of a batch of %d entries from position %d: %w", m, start, err)
		}
		r.bytes += m * int64(ks+vals.size)
		r.done.Store(start + m)
	}
	return nil
}

// delete returns the body of deleterandom: n Deletes of the loaded
// entries in a random order, going round again (deleting absent keys) if
// n exceeds them.
func (s *Session) delete(n int64) func(*benchRun) error {
	l := s.st.loaded
	order := shuffled(l, s.seed(DeleteRandom))
	return func(r *benchRun) error {
		keys := s.cfg.KeyType
		key := make([]byte, keys.Size())
		for j := range n {
			i := order.at(j % l)
			keys.Put(key, i)
			t0 := time.Now()
			err := s.db.Delete(key)
			r.add(time.Since(t0))
			if err != nil {
				r.done.Store(j)
				return fmt.Errorf("delete of entry %d: %w", i, err)
			}
			r.bytes += int64(len(key))
			if (j+1)%progressEvery == 0 {
				r.done.Store(j + 1)
			}
		}
		r.done.Store(n)
		if n < l {
			s.st.partial = true
			s.st.removed = min(s.st.removed+n, l)
		} else {
			s.st.deleted = true
		}
		return nil
	}
}
