package levelcore

/*
#include "levelcore.h"

static levelcore_size lc_size(const levelcore_ops *o, void *db, const char *s, size_t slen,
			      const char *e, size_t elen, int hasend)
{
	return o->size(db, s, slen, e, elen, hasend);
}
*/
import "C"

// EstimateSize implements engine.SizeEstimator with the library's
// ApproximateSizes: the bytes of table files in the range, counted by
// their index blocks. RocksDB adds the memtables, by a sample of their
// entries; LevelDB and HyperLevelDB leave writes still there out.
func (d *DB) EstimateSize(start, end []byte) (int64, error) {
	s, sn := cbytes(start)
	e, en := cbytes(end)
	r := C.lc_size(d.ops, d.db, s, sn, e, en, cbool(end != nil))
	if err := d.cError("estimate size", r.err); err != nil {
		return 0, err
	}
	return int64(r.size), nil
}
