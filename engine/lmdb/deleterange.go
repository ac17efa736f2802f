package lmdb

// #include "binding.h"
import "C"

import "bytes"

// deleteChunk bounds the deletes per write transaction, so that deleting a
// huge range keeps the transaction's dirty pages, and so memory, flat.
const deleteChunk = 1 << 16

// DeleteRange deletes every key in [start, end) with a cursor, in write
// transactions of at most deleteChunk deletes: each is atomic, a range
// larger than one chunk is not.
func (db *DB) DeleteRange(start, end []byte) error {
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	s, sn := cbytes(start)
	e, en := cbytes(end)
	for {
		var r C.tsb_lmdb_chunk
		err := db.update("delete range", func() C.int {
			r = C.tsb_lmdb_delete_range(db.env, db.dbi, s, sn, e, en, cbool(end != nil), deleteChunk)
			return r.rc
		})
		if err != nil || r.done != 0 {
			return err
		}
	}
}
