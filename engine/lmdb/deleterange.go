package lmdb

import (
	"bytes"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"
)

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
	from := clone(start)
	var next []byte
	for {
		var done bool
		err := db.update("delete range", func(txn *mdb.Txn) error {
			// update may run this again after growing the map.
			done = false
			// Keys are only compared and copied before the delete that
			// may overwrite their page, so they need not be copied out.
			txn.RawRead = true
			cur, err := txn.OpenCursor(db.dbi)
			if err != nil {
				return err
			}
			defer cur.Close()
			var k []byte
			if len(from) == 0 {
				k, _, err = cur.Get(nil, nil, mdb.First)
			} else {
				k, _, err = cur.Get(from, nil, mdb.SetRange)
			}
			for n := 0; ; n++ {
				if mdb.IsNotFound(err) || (err == nil && end != nil && bytes.Compare(k, end) >= 0) {
					done = true
					return nil
				}
				if err != nil {
					return err
				}
				if n == deleteChunk {
					next = append(next[:0], k...)
					return nil
				}
				if err := cur.Del(0); err != nil {
					return err
				}
				// After a delete the cursor rests on the following key,
				// which Next returns without skipping it.
				k, _, err = cur.Get(nil, nil, mdb.Next)
			}
		})
		if err != nil || done {
			return err
		}
		from, next = next, from
	}
}
