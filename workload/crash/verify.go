package crash

import (
	"bytes"
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
	s := Scan{Incomplete: map[uint64]int{}}
	it, err := db.NewIterator(engine.IterOptions{})
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
		value(want, cfg.Seed, b, i)
		if !bytes.Equal(it.Value(), want) {
			s.problem(fmt.Sprintf("batch %d entry %d: wrong value", b, i))
			continue
		}
		n++
	}
	if err := it.Close(); err != nil {
		return s, err
	}
	if s.Top > 0 {
		s.count(cur, n, cfg.Batch)
	}
	return s, nil
}

// count records that batch b has n intact entries of batch.
func (s *Scan) count(b uint64, n, batch int) {
	if n < batch {
		s.Incomplete[b] = n
	}
}

func (s *Scan) problem(p string) {
	if s.Problem == "" {
		s.Problem = p
	}
}
