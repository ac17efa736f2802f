package engine

// SizeEstimator is implemented by engines that can estimate the space a
// key range takes without reading it (LSM table metadata, B+tree page
// counts).
type SizeEstimator interface {
	// EstimateSize returns about how many bytes the keys in [start, end)
	// take on disk, compressed, with nil bounds meaning unbounded. Writes
	// still in memory may be left out.
	EstimateSize(start, end []byte) (int64, error)
}

// EstimateSize estimates the bytes the keys in [start, end) take: the
// engine's own estimate if r implements SizeEstimator (every engine from
// Open does, natively or not), otherwise the sum of their key and value
// lengths, which is exact but reads the whole range. Nil bounds mean
// unbounded.
func EstimateSize(r Reader, start, end []byte) (int64, error) {
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
	s, ok := h.be.(SizeEstimator)
	if !ok {
		h.exit() // the scan's iterator enters itself
		return scanSize(h, start, end)
	}
	defer h.exit()
	n, err := s.EstimateSize(start, end)
	return n, h.latch(err)
}
