package crash

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/tsbench/storage/engine"
)

// Scan is what a reopened store holds, batch by batch.
type Scan struct {
	// Top is one more than the highest batch found, 0 if none was.
	Top uint64 `json:"top"`
	// Incomplete maps each batch below Top that is not wholly present to
	// the entries of it that are intact (0 for a missing batch).
	Incomplete map[uint64]int `json:"incomplete,omitempty"`
	// Problem describes the first damaged entry found: a wrong value, an
	// entry out of place, a key that is not the check's.
	Problem string `json:"problem,omitempty"`
}

// Verify reads every entry of db and checks it against what Write
// committed.
func Verify(db engine.Engine, cfg Config) (Scan, error) {
	return verify(db, engine.OrderPrefix(db), cfg)
}

// verify is Verify over r, an engine ordered within prefixes of prefix
// bytes (0: one order over every key).
func verify(r engine.Reader, prefix int, cfg Config) (Scan, error) {
	if prefix > 0 {
		return verifyByBatch(r, prefix, cfg)
	}
	s := Scan{Incomplete: map[uint64]int{}}
	it, err := r.NewIterator(engine.IterOptions{})
	if err != nil {
		return s, err
	}
	want := make([]byte, cfg.ValueSize)
	var cur uint64 // the batch being counted, if Top > 0
	n := 0         // its intact entries
	for ok := it.First(); ok; ok = it.Next() {
		b, i, ok := parseKey(it.Key())
		if !ok || int(i) >= cfg.Batch {
			s.problem(fmt.Sprintf("unexpected key %x", it.Key()))
			continue
		}
		if s.Top == 0 || b != cur {
			if s.Top > 0 {
				s.count(cur, n, cfg.Batch)
			}
			for m := s.Top; m < b; m++ {
				s.Incomplete[m] = 0 // missing
			}
			cur, n = b, 0
		}
		s.Top = b + 1
		if s.intact(it.Value(), want, cfg, b, i) {
			n++
		}
	}
	if err := it.Close(); err != nil {
		return s, err
	}
	if s.Top > 0 {
		s.count(cur, n, cfg.Batch)
	}
	return s, nil
}

// batchGap is how many batches in a row verifyByBatch finds missing
// before it concludes that none follows: batches are committed one after
// another, so only a loss of more than batchGap batches in a row with
// batches after them could hide those after.
const batchGap = 64

// verifyByBatch is verify for an engine ordered only within prefixes of
// at most a batch number's 8 bytes (Cassandra's partitions), which cannot
// list its keys in order: it reads batch after batch, each within its own
// prefix, until batchGap in a row are missing.
func verifyByBatch(r engine.Reader, prefix int, cfg Config) (Scan, error) {
	s := Scan{Incomplete: map[uint64]int{}}
	if prefix > batchKeySize {
		return s, fmt.Errorf("%w: the engine orders keys only within prefixes of %d bytes, and the crash check reads a batch within its first %d: give the engine a prefix length of at most %d", ErrInvalidConfig, prefix, batchKeySize, batchKeySize)
	}
	want := make([]byte, cfg.ValueSize)
	lower, upper := make([]byte, batchKeySize), make([]byte, batchKeySize)
	for b, missing := uint64(0), 0; missing < batchGap; b++ {
		binary.BigEndian.PutUint64(lower, b)
		binary.BigEndian.PutUint64(upper, b+1)
		it, err := r.NewIterator(engine.IterOptions{LowerBound: lower, UpperBound: upper})
		if err != nil {
			return s, err
		}
		found, n := false, 0
		for ok := it.First(); ok; ok = it.Next() {
			found = true
			kb, i, ok := parseKey(it.Key())
			if !ok || kb != b || int(i) >= cfg.Batch {
				s.problem(fmt.Sprintf("unexpected key %x", it.Key()))
				continue
			}
			if s.intact(it.Value(), want, cfg, b, i) {
				n++
			}
		}
		if err := it.Close(); err != nil {
			return s, err
		}
		if !found {
			missing++
			continue
		}
		for m := s.Top; m < b; m++ {
			s.Incomplete[m] = 0 // missing
		}
		s.Top, missing = b+1, 0
		s.count(b, n, cfg.Batch)
	}
	return s, nil
}

// merge adds what o found to s: both read the same batches, through
// different copies of the data.
func (s *Scan) merge(o Scan) {
	for b := min(s.Top, o.Top); b < max(s.Top, o.Top); b++ {
		s.Incomplete[b] = 0 // missing from one
	}
	for b, n := range o.Incomplete {
		if m, ok := s.Incomplete[b]; !ok || n < m {
			s.Incomplete[b] = n
		}
	}
	s.Top = max(s.Top, o.Top)
	s.problem(o.Problem)
}

// intact reports whether v is entry i of batch b as Write committed it,
// through want, a buffer of cfg.ValueSize bytes; a wrong value is a
// problem.
func (s *Scan) intact(v, want []byte, cfg Config, b uint64, i uint32) bool {
	value(want, cfg.Seed, b, i)
	if !bytes.Equal(v, want) {
		s.problem(fmt.Sprintf("batch %d entry %d: wrong value", b, i))
		return false
	}
	return true
}

// count records that batch b has n intact entries of batch.
func (s *Scan) count(b uint64, n, batch int) {
	if n < batch {
		s.Incomplete[b] = n
	}
}

func (s *Scan) problem(p string) {
	if s.Problem == "" && p != "" {
		s.Problem = p
	}
}
