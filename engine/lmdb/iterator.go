package lmdb

import (
	"bytes"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine"
)

// iterator walks a cursor of its own read transaction, whose snapshot it
// sees until Close.
//
// The map may grow while the iterator is open (see mapsize.go), which moves
// it in memory. So the iterator holds mapMu only during each call, copies
// the entry it rests on into buffers it reuses (no allocation per entry),
// and, when it finds the map moved since its last call, resets its cursor,
// whose page pointers then dangle, and seeks back to its key. The
// transaction itself holds no pointer into the map and stays valid.
type iterator struct {
	db           *DB
	txn          *mdb.Txn
	cur          *mdb.Cursor
	lower, upper []byte
	// key and value hold the current entry; they are meaningful only
	// while valid.
	key, value []byte
	valid      bool
	// gen is the map generation the cursor's pointers belong to.
	gen uint64
	// lost says the cursor was reset by a remap and must seek back to key
	// before moving relative to it.
	lost   bool
	err    error
	closed bool
}

// NewIterator opens a read transaction and a cursor on it. The transaction
// holds its snapshot, and a reader slot, until Close.
func (db *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	txn, err := db.beginRead()
	if err != nil {
		return nil, err
	}
	defer db.mapMu.RUnlock()
	cur, err := txn.OpenCursor(db.dbi)
	if err != nil {
		db.releaseRead(txn)
		return nil, wrap("open cursor", err)
	}
	it := &iterator{db: db, txn: txn, cur: cur, upper: clone(opts.UpperBound), gen: db.mapGen}
	// Every stored key is non-empty, so an empty lower bound bounds
	// nothing; LMDB could not seek to it either.
	if len(opts.LowerBound) > 0 {
		it.lower = clone(opts.LowerBound)
	}
	return it, nil
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// lock holds the map in place for one call, first resetting the cursor if
// the map moved since the last. It reports false, holding nothing, if the
// iterator is closed or the reset failed.
func (it *iterator) lock() bool {
	if it.closed {
		return false
	}
	it.db.mapMu.RLock()
	if it.gen != it.db.mapGen {
		if err := it.cur.Renew(it.txn); err != nil {
			it.db.mapMu.RUnlock()
			return it.stop(err)
		}
		it.gen = it.db.mapGen
		it.lost = it.valid
	}
	return true
}

func (it *iterator) unlock() { it.db.mapMu.RUnlock() }

func (it *iterator) First() bool {
	if !it.lock() {
		return false
	}
	defer it.unlock()
	it.lost = false
	if it.lower != nil {
		return it.forward(it.cur.Get(it.lower, nil, mdb.SetRange))
	}
	return it.forward(it.cur.Get(nil, nil, mdb.First))
}

func (it *iterator) Last() bool {
	if !it.lock() {
		return false
	}
	defer it.unlock()
	it.lost = false
	if it.upper == nil {
		return it.backward(it.cur.Get(nil, nil, mdb.Last))
	}
	if len(it.upper) == 0 {
		return it.stop(nil)
	}
	// Step back from the first key at or past the upper bound, or from
	// the very end when there is none.
	_, _, err := it.cur.Get(it.upper, nil, mdb.SetRange)
	switch {
	case err == nil:
		return it.backward(it.cur.Get(nil, nil, mdb.Prev))
	case mdb.IsNotFound(err):
		return it.backward(it.cur.Get(nil, nil, mdb.Last))
	}
	return it.stop(err)
}

func (it *iterator) Seek(key []byte) bool {
	if !it.lock() {
		return false
	}
	defer it.unlock()
	it.lost = false
	if it.lower != nil && bytes.Compare(key, it.lower) < 0 {
		key = it.lower
	}
	if len(key) == 0 {
		return it.forward(it.cur.Get(nil, nil, mdb.First))
	}
	return it.forward(it.cur.Get(key, nil, mdb.SetRange))
}

func (it *iterator) Next() bool {
	if !it.valid || !it.lock() {
		return false
	}
	defer it.unlock()
	if err := it.refind(); err != nil {
		return it.stop(err)
	}
	return it.forward(it.cur.Get(nil, nil, mdb.Next))
}

func (it *iterator) Prev() bool {
	if !it.valid || !it.lock() {
		return false
	}
	defer it.unlock()
	if err := it.refind(); err != nil {
		return it.stop(err)
	}
	return it.backward(it.cur.Get(nil, nil, mdb.Prev))
}

// refind puts a cursor reset by a remap back on the current key, which
// the snapshot still holds.
func (it *iterator) refind() error {
	if !it.lost {
		return nil
	}
	it.lost = false
	_, _, err := it.cur.Get(it.key, nil, mdb.SetRange)
	return err
}

// forward settles on k after a forward move unless it is past the upper
// bound.
func (it *iterator) forward(k, v []byte, err error) bool {
	if err != nil || (it.upper != nil && bytes.Compare(k, it.upper) >= 0) {
		return it.stop(err)
	}
	return it.settle(k, v)
}

// backward settles on k after a backward move unless it is before the
// lower bound.
func (it *iterator) backward(k, v []byte, err error) bool {
	if err != nil || (it.lower != nil && bytes.Compare(k, it.lower) < 0) {
		return it.stop(err)
	}
	return it.settle(k, v)
}

// settle copies the entry out of the map into the iterator's buffers.
func (it *iterator) settle(k, v []byte) bool {
	it.key = append(it.key[:0], k...)
	it.value = append(it.value[:0], v...)
	it.valid = true
	return true
}

// stop leaves the iterator unpositioned, recording err unless it only
// says the cursor ran off the end.
func (it *iterator) stop(err error) bool {
	if err != nil && !mdb.IsNotFound(err) && it.err == nil {
		it.err = wrap("iterate", err)
	}
	it.valid = false
	return false
}

func (it *iterator) Valid() bool { return it.valid }

func (it *iterator) Key() []byte {
	if !it.valid {
		return nil
	}
	return it.key
}

func (it *iterator) Value() []byte {
	if !it.valid {
		return nil
	}
	return it.value
}

func (it *iterator) Err() error {
	if it.closed {
		return engine.ErrClosed
	}
	return it.err
}

// Close ends the read transaction, releasing its snapshot. Neither that
// nor closing the cursor touches the map, so it needs no lock. The
// transaction is released before Close returns, so that Compact, which
// runs only once every iterator is closed, finds it among the idle ones.
func (it *iterator) Close() error {
	if it.closed {
		return engine.ErrClosed
	}
	it.closed = true
	it.valid = false
	it.cur.Close()
	it.db.releaseRead(it.txn)
	return it.err
}
