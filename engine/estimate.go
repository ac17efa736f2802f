package engine

import "fmt"

// SizeEstimator is implemented by engines that can estimate the space a
// key range takes without reading it (LSM table metadata, B+tree page
// counts).
type SizeEstimator interface {
	// EstimateSize returns about how many bytes the keys in [start, end)
	// and their values take in the engine's storage, compressed, with nil
	// bounds meaning unbounded. Writes still in memory count too, unless
	// the engine's Limits say EstimateExcludesMemtable.
	EstimateSize(start, end []byte) (int64, error)
}

// EstimateSize estimates the bytes the keys in [start, end) and their
// values take: the engine's own estimate if r implements SizeEstimator
// (every engine from Open does, natively or not), otherwise the sum of
// their key and value lengths, which is exact but reads the whole range.
// Nil bounds mean unbounded; start above end fails with ErrInvalidRange.
//
// Every write counts as soon as it returns, whatever the engine, except
// on an engine whose Limits say EstimateExcludesMemtable (Pebble, LevelDB,
// HyperLevelDB and goleveldb, whose estimates read their table files
// only): there a write counts once a flush or a Compact has written it to
// a table, so a range just written may be estimated at 0.
func EstimateSize(r Reader, start, end []byte) (int64, error) {
	if err := CheckRange(start, end); err != nil {
		return 0, fmt.Errorf("engine: EstimateSize: %w", err)
	}
	if s, ok := r.(SizeEstimator); ok {
		return s.EstimateSize(start, end)
	}
	return scanSize(r, start, end)
}

// scanSize adds up the key and value lengths in [start, end).
func scanSize(r Reader, start, end []byte) (int64, error) {
	it, err := r.NewIterator(IterOptions{LowerBound: start, UpperBound: end})
	if err != nil {
		return 0, err
	}
	var n int64
	for ok := it.First(); ok; ok = it.Next() {
		n += int64(len(it.Key()) + len(it.Value()))
	}
	if err := it.Close(); err != nil {
		return 0, err
	}
	return n, nil
}

// EstimateSize implements SizeEstimator with the backend's estimate, or by
// scanning through this handle.
func (h *handle) EstimateSize(start, end []byte) (int64, error) {
	if err := h.enter(); err != nil {
		return 0, err
	}
	if err := CheckRange(start, end); err != nil {
		h.exit()
		return 0, h.invalid("EstimateSize", err)
	}
	s, ok := h.be.(SizeEstimator)
	if !ok {
		h.exit() // the scan's iterator enters itself
		return scanSize(h, start, end)
	}
	defer h.exit()
	n, err := s.EstimateSize(start, end)
	return n, h.latch(err)
}
