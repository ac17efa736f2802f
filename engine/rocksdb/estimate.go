package rocksdb

// #include "binding.h"
import "C"

// EstimateSize implements engine.SizeEstimator with RocksDB's
// GetApproximateSizes over table files and memtables: tables count by
// their index blocks, memtables by a sample of their entries.
func (d *DB) EstimateSize(start, end []byte) (int64, error) {
	s, sn := cbytes(start)
	e, en := cbytes(end)
	r := C.tsb_rocksdb_approximate_size(d.db, d.cf, s, sn, e, en, C.int(cbool(end != nil)))
	if err := cError(r.err); err != nil {
		return 0, err
	}
	return int64(r.size), nil
}
