// Package rangedel deletes a key range through an engine's own iterator and
// batches, for backends with no native range delete (ByScan), and bounds
// one for backends whose native range delete needs both ends (Span).
package rangedel

import (
	"bytes"

	"github.com/tsbench/storage/engine"
)

// chunk bounds the deletes per commit so that deleting a huge range keeps
// memory flat; each commit is atomic, the whole range is not.
const chunk = 4096

// Backend is what ByScan needs of a backend.
type Backend interface {
	NewIterator(opts engine.IterOptions) (engine.Iterator, error)
	NewBatch() engine.BackendBatch
}

// ByScan deletes every key in [start, end) from e, a backend's
// DeleteRange.
func ByScan(e Backend, start, end []byte) error {
	if end != nil && start != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	b := e.NewBatch()
	defer b.Close()
	from := start
	for {
		it, err := e.NewIterator(engine.IterOptions{LowerBound: from, UpperBound: end})
		if err != nil {
			return err
		}
		var last []byte
		n := 0
		for ok := it.First(); ok && n < chunk; ok = it.Next() {
			b.Delete(it.Key())
			last = append(last[:0], it.Key()...)
			n++
		}
		if err := it.Close(); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		full := n == chunk
		if err := b.Commit(); err != nil {
			return err
		}
		if !full {
			return nil
		}
		// Resume just after the last deleted key.
		from = append(last, 0)
	}
}

// Span returns [start, end) as a native range delete that needs both
// bounds takes it: a nil start becomes the empty key, and a nil end the
// key just after the last key of r from start on, so that keys written
// beyond it once the call began survive. ok is false when there is
// nothing to delete.
func Span(r engine.Reader, start, end []byte) (s, e []byte, ok bool, err error) {
	if start == nil {
		start = []byte{}
	}
	if end == nil {
		it, err := r.NewIterator(engine.IterOptions{LowerBound: start})
		if err != nil {
			return nil, nil, false, err
		}
		found := it.Last()
		if found {
			end = append(bytes.Clone(it.Key()), 0)
		}
		if err := it.Close(); err != nil || !found {
			return nil, nil, false, err
		}
	}
	return start, end, bytes.Compare(start, end) < 0, nil
}
