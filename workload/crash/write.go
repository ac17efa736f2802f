package crash

import (
	"fmt"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
)

// Write commits batches to db, numbered on from the highest batch already
// in it, and calls ack with each batch's number once its Commit returned.
// It stops only at an error, its own or ack's: the writer is meant to be
// killed.
func Write(db engine.Engine, cfg Config, ack func(batch uint64) error) error {
	return Writer{Ack: ack}.Write(db, cfg)
}

// Writer is what a writer process tells the process that kills it.
type Writer struct {
	// Ack is called with each batch's number once its Commit returned.
	Ack func(batch uint64) error
	// Memory, if not nil, is called with the peaks of the writer
	// process's memory by kind so far each time one of them grows,
	// sampled after commits at most every memoryEvery: the writer is
	// killed at any moment, so it cannot report them at its end. Its
	// last call before the kill is the round's Round.Memory.
	Memory func(measure.MemoryPeaks) error
}

// memoryEvery is how often a writer samples its memory at most: often
// enough for the few hundred milliseconds a writer lives, rarely enough
// that reading /proc/self/status costs a commit nothing that matters.
const memoryEvery = 10 * time.Millisecond

// Write commits batches to db as the package's Write does, calling w.Ack
// and w.Memory.
func (w Writer) Write(db engine.Engine, cfg Config) error {
	next, err := nextBatch(db, cfg)
	if err != nil {
		return err
	}
	m := memorySampler{report: w.Memory}
	if err := m.sample(); err != nil {
		return err
	}
	k, v := make([]byte, keySize), make([]byte, cfg.ValueSize)
	bt := db.NewBatch()
	defer bt.Close()
	for b := next; ; b++ {
		putBatch(bt, cfg, b, k, v)
		if err := bt.Commit(); err != nil {
			return fmt.Errorf("commit batch %d: %w", b, err)
		}
		if err := w.Ack(b); err != nil {
			return err
		}
		if time.Since(m.last) >= memoryEvery {
			if err := m.sample(); err != nil {
				return err
			}
		}
	}
}

// memorySampler keeps a writer's memory peaks and reports them as they
// grow.
type memorySampler struct {
	report func(measure.MemoryPeaks) error
	peaks  measure.MemoryPeaks
	last   time.Time
	// off is set once memory by kind cannot be read here: the writer
	// writes on without it.
	off bool
}

// sample takes one sample and reports the peaks if one grew. Its error is
// the report's.
func (m *memorySampler) sample() error {
	if m.report == nil || m.off {
		return nil
	}
	m.last = time.Now()
	mem, err := measure.ReadMemory()
	if err != nil {
		m.off = true
		return nil
	}
	before := m.peaks
	m.peaks.Add(mem, measure.GoMemory())
	if same := m.peaks; before.Samples > 0 {
		if same.Samples = before.Samples; same == before {
			return nil // no peak grew
		}
	}
	return m.report(m.peaks)
}

// nextBatch is the number after the highest batch in db, 0 if it is empty.
func nextBatch(db engine.Engine, cfg Config) (uint64, error) {
	if engine.OrderPrefix(db) > 0 {
		// No last key to seek to: the batches are read one by one.
		s, err := Verify(db, cfg)
		if err != nil {
			return 0, fmt.Errorf("find the last batch: %w", err)
		}
		return s.Top, nil
	}
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		return 0, fmt.Errorf("find the last batch: %w", err)
	}
	next := uint64(0)
	if it.Last() {
		b, _, ok := parseKey(it.Key())
		if !ok {
			it.Close()
			return 0, fmt.Errorf("find the last batch: key %x is not the crash check's: use an empty directory", it.Key())
		}
		next = b + 1
	}
	if err := it.Close(); err != nil {
		return 0, fmt.Errorf("find the last batch: %w", err)
	}
	return next, nil
}
