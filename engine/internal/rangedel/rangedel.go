// Package rangedel deletes a key range through an engine's own iterator and
// batches, for backends with no native range delete.
package rangedel

import (
	"bytes"

	"github.com/tsbench/storage/engine"
)

// chunk bounds the deletes per commit so that deleting a huge range keeps
// memory flat; each commit is atomic, the whole range is not.
const chunk = 4096

// ByScan deletes every key in [start, end) from e. Backends call it from
// DeleteRange without holding their own guard: each call it makes on e
// enters the guard itself.
func ByScan(e engine.Engine, start, end []byte) error {
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
		for ok := it.First(); ok && b.Len() < chunk; ok = it.Next() {
			b.Delete(it.Key())
			last = append(last[:0], it.Key()...)
		}
		if err := it.Close(); err != nil {
			return err
		}
		if b.Len() == 0 {
			return nil
		}
		full := b.Len() == chunk
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
