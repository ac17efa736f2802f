package pebble

import (
	"bytes"

	"github.com/tsbench/storage/engine"
)

var _ engine.SizeEstimator = (*DB)(nil)

// EstimateSize implements engine.SizeEstimator with Pebble's
// EstimateDiskUsage: the tables' bytes in the range, whole for tables
// within it and by data block for the others. Writes still in the
// memtable are left out.
func (db *DB) EstimateSize(start, end []byte) (int64, error) {
	if end == nil {
		// Pebble needs an end: just past the tables' largest key.
		_, hi, ok, err := db.tableBounds()
		if err != nil || !ok {
			return 0, err
		}
		end = append(hi, 0)
	}
	if bytes.Compare(start, end) >= 0 {
		return 0, nil
	}
	n, err := db.db.EstimateDiskUsage(start, end)
	return int64(n), kinds.Wrap(err)
}
