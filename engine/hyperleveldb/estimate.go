package hyperleveldb

// #include "binding.h"
import "C"

// EstimateSize implements engine.SizeEstimator with HyperLevelDB's
// ApproximateSizes: the bytes of table files in the range, counted by
// their index blocks. Writes still in the memtable are left out.
func (db *DB) EstimateSize(start, end []byte) (int64, error) {
	s, sn := cbytes(start)
	e, en := cbytes(end)
	r := C.tsb_hyperleveldb_approximate_size(db.db, s, sn, e, en, C.int(cbool(end != nil)))
	if err := cError("estimate size", r.err); err != nil {
		return 0, err
	}
	return int64(r.size), nil
}
