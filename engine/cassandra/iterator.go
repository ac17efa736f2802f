package cassandra

import (
	"bytes"
	"sort"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/tsbench/storage/engine"
)

var _ engine.BoundsSetter = (*iterator)(nil)

// pageSize is the rows of one page of an iterator's read: a range that
// fits one page is read at one moment, as one request, and a partition's
// rows so read are seen whole or not at all by a batch of that
// partition.
const pageSize = 10000

// entry is one key and value an iterator holds.
type entry struct{ k, v []byte }

// iterator holds every entry of its range, read when it was made:
// Cassandra keeps no snapshot to read later pages of, so reading the
// range at once is what gives the iterator the view of one moment (of
// each page's moment, for a range of more than a page).
type iterator struct {
	d            *DB
	lower, upper []byte
	rows         []entry
	pos          int
	err          error
}

// NewIterator implements engine.Backend.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	it := &iterator{d: d, pos: -1}
	if err := it.read(opts); err != nil {
		return nil, err
	}
	return it, nil
}

// read replaces the iterator's entries with those within opts.
func (it *iterator) read(opts engine.IterOptions) error {
	d := it.d
	it.lower, it.upper = bytes.Clone(opts.LowerBound), bytes.Clone(opts.UpperBound)
	it.rows, it.pos, it.err = it.rows[:0], -1, nil
	ctx, cancel := d.ctx()
	defer cancel()
	var q *gocql.Query
	var p0 []byte
	if d.global {
		stmt, args := d.tokenRange("SELECT p, c, v FROM", it.lower, it.upper)
		q = d.s.Query(stmt, args...)
	} else {
		// The engine layer has checked that the bounds lie within the
		// partition of the lower one.
		p, _ := d.split(it.lower)
		p0 = p
		cl, cu, _ := clusterRange(p, it.lower, it.upper)
		if cu != nil {
			q = d.s.Query("SELECT c, v FROM "+quoteName(d.l.Keyspace)+"."+table+" WHERE p = ? AND c >= ? AND c < ?", p, nonNil(cl), cu)
		} else {
			q = d.s.Query("SELECT c, v FROM "+quoteName(d.l.Keyspace)+"."+table+" WHERE p = ? AND c >= ?", p, nonNil(cl))
		}
	}
	iter := q.PageSize(pageSize).Idempotent(true).IterContext(ctx)
	var p, c, v []byte
	for {
		var ok bool
		if d.global {
			ok = iter.Scan(&p, &c, &v)
		} else {
			ok = iter.Scan(&c, &v)
			p = p0
		}
		if !ok {
			break
		}
		k := join(p, c)
		// Rows of the edge partitions beyond the bounds are left out.
		if (it.lower == nil || bytes.Compare(k, it.lower) >= 0) && (it.upper == nil || bytes.Compare(k, it.upper) < 0) {
			it.rows = append(it.rows, entry{k, nonNil(v)})
		}
		p, c, v = nil, nil, nil
	}
	if err := iter.Close(); err != nil {
		return d.wrap("iterate", err)
	}
	return nil
}

// SetBounds implements engine.BoundsSetter: it reads the new range now.
func (it *iterator) SetBounds(opts engine.IterOptions) error {
	return it.read(opts)
}

func (it *iterator) First() bool { return it.at(0) }
func (it *iterator) Last() bool  { return it.at(len(it.rows) - 1) }

// Seek moves to the first entry >= key.
func (it *iterator) Seek(key []byte) bool {
	return it.at(sort.Search(len(it.rows), func(i int) bool { return bytes.Compare(it.rows[i].k, key) >= 0 }))
}

func (it *iterator) Next() bool {
	if it.pos < 0 {
		return false
	}
	return it.at(it.pos + 1)
}

func (it *iterator) Prev() bool {
	if it.pos < 0 {
		return false
	}
	return it.at(it.pos - 1)
}

// at rests on entry i, or on none when there is no such entry.
func (it *iterator) at(i int) bool {
	if it.err != nil || i < 0 || i >= len(it.rows) {
		it.pos = -1
		return false
	}
	it.pos = i
	return true
}

func (it *iterator) Valid() bool { return it.pos >= 0 }

func (it *iterator) Key() []byte {
	if it.pos < 0 {
		return nil
	}
	return it.rows[it.pos].k
}

func (it *iterator) Value() []byte {
	if it.pos < 0 {
		return nil
	}
	return it.rows[it.pos].v
}

func (it *iterator) Err() error { return it.err }

// Close releases the entries; the engine's wrapper calls it once.
func (it *iterator) Close() error {
	it.rows, it.pos = nil, -1
	return it.err
}
