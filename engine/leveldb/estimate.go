package leveldb

// #include "binding.h"
import "C"

// EstimateSize implements engine.SizeEstimator with LevelDB's
// ApproximateSizes: the bytes of table files in the range, counted by
// their index blocks. Writes still in the memtable are left out.
func (d *DB) EstimateSize(start, end []byte) (int64, error) {
	s, sn := cbytes(start)
	e, en := cbytes(end)
	r := C.tsb_leveldb_approximate_size(d.db, s, sn, e, en, cbool(end != nil))
	if err := cError(r.err); err != nil {
		return 0, err
	}
	return int64(r.size), nil
}
