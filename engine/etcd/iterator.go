package etcd

import (
	"bytes"
	"fmt"
	"slices"
	"sort"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/tsbench/storage/engine"
)

const (
	// firstPage is the entries an iterator reads in its first request,
	// which NewIterator makes from the lower bound: enough for a
	// time-series query of one series in one request.
	firstPage = 1000
	// maxPage caps the entries of one request. Each later request in a
	// scan doubles the previous one up to it, because etcd walks its
	// in-memory index over the whole rest of the range for every request,
	// whatever its limit: few large pages keep a long scan from costing
	// the square of its length.
	maxPage = 32768
	// maxPageBytes caps a page's expected size in bytes, judged by the
	// previous page, so large values do not make huge responses.
	maxPageBytes = 8 << 20
)

var _ engine.BoundsSetter = (*iterator)(nil)

// iterator reads pages of entries at one revision, its snapshot; etcd
// keeps every revision until a compaction, and Compact spares those of
// open iterators.
//
// It holds a window: every entry of the snapshot from key wlo (inclusive)
// to whi (exclusive; nil for no end) within bounds, in key order. Moves
// within the window need no request; a move past it reads the next page
// in that direction.
type iterator struct {
	d        *DB
	rev      int64
	lower    []byte // nil or empty: no lower bound
	upper    []byte // nil: no upper bound
	win      []*mvccpb.KeyValue
	wlo, whi []byte
	pos      int // index in win of the current entry; -1 for none
	limit    int64
	err      error
}

// NewIterator implements engine.Backend. It reads the first page from the
// lower bound at once: that request fixes the snapshot's revision, and a
// forward scan, the usual case, starts without another.
func (d *DB) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	d.snapMu.RLock()
	defer d.snapMu.RUnlock()
	return d.newIterator(opts, 0)
}

// newIterator returns an iterator reading at rev, or at the current
// revision for 0. The caller holds snapMu, or a pin on rev.
func (d *DB) newIterator(opts engine.IterOptions, rev int64) (*iterator, error) {
	it := &iterator{d: d, rev: rev}
	it.setBounds(opts)
	if below(it.lower, it.upper) {
		if err := it.readFrom(it.lower); err != nil {
			return nil, err
		}
	} else if it.rev == 0 {
		// An empty range needs no read, but the snapshot still needs its
		// revision.
		ctx, cancel := d.ctx()
		rev, err := d.revision(ctx)
		cancel()
		if err != nil {
			return nil, d.wrap("new iterator", err)
		}
		it.rev = rev
	}
	d.pin(it.rev)
	return it, nil
}

// setBounds gives the iterator new bounds and a window that covers no key
// (it ends at the empty key), so the next move reads.
func (it *iterator) setBounds(opts engine.IterOptions) {
	it.lower = append(it.lower[:0], opts.LowerBound...)
	it.upper = bytes.Clone(opts.UpperBound)
	it.win, it.wlo, it.whi = nil, it.lower, []byte{}
	it.pos, it.limit = -1, firstPage
}

// SetBounds implements engine.BoundsSetter: the iterator keeps its
// revision, so every range it reads belongs to one snapshot.
func (it *iterator) SetBounds(opts engine.IterOptions) error {
	it.setBounds(opts)
	it.err = nil
	return nil
}

// below reports whether k lies before the exclusive end e (nil: no end).
func below(k, e []byte) bool { return e == nil || bytes.Compare(k, e) < 0 }

// userKey strips the engine prefix from an etcd key.
func (it *iterator) userKey(kv *mvccpb.KeyValue) []byte { return kv.Key[len(it.d.prefix):] }

// read makes one range request at the snapshot's revision (the current
// revision for the first) and grows the next page.
func (it *iterator) read(from []byte, to []byte, reverse bool) ([]*mvccpb.KeyValue, bool, error) {
	opts := append([]clientv3.OpOption{clientv3.WithRange(it.d.end(to)), clientv3.WithLimit(it.limit), clientv3.WithRev(it.rev)}, it.d.reads...)
	if reverse {
		// etcd sorts, and so reads, the whole range [from, to) for this:
		// see the package doc.
		opts = append(opts, clientv3.WithSort(clientv3.SortByKey, clientv3.SortDescend))
	}
	ctx, cancel := it.d.ctx()
	defer cancel()
	resp, err := it.d.cli.Get(ctx, it.d.key(from), opts...)
	if err != nil {
		return nil, false, it.d.wrap("iterate", err)
	}
	if it.rev == 0 {
		it.rev = resp.Header.Revision
	}
	if n := len(resp.Kvs); n > 0 {
		size := 0
		for _, kv := range resp.Kvs {
			size += len(kv.Key) + len(kv.Value)
		}
		it.limit = max(1, min(2*it.limit, maxPage, int64(maxPageBytes/max(1, size/n))))
	}
	return resp.Kvs, resp.More, nil
}

// readFrom makes the window the first page of entries >= from.
func (it *iterator) readFrom(from []byte) error {
	kvs, more, err := it.read(from, it.upper, false)
	if err != nil {
		return err
	}
	// from may be the caller's Seek key, which it may reuse.
	it.win, it.wlo, it.whi = kvs, bytes.Clone(from), it.upper
	if more {
		it.whi = append(bytes.Clone(it.userKey(kvs[len(kvs)-1])), 0)
	}
	return nil
}

// readBefore makes the window the last page of entries < to (nil: the
// upper bound).
func (it *iterator) readBefore(to []byte) error {
	kvs, more, err := it.read(it.lower, to, true)
	if err != nil {
		return err
	}
	slices.Reverse(kvs)
	it.win, it.wlo, it.whi = kvs, it.lower, to
	if more {
		it.wlo = bytes.Clone(it.userKey(kvs[0]))
	}
	return nil
}

// fail records err and leaves the iterator on no entry.
func (it *iterator) fail(err error) bool {
	it.err = err
	it.pos = -1
	return false
}

// seekGE moves to the first entry >= x (x within bounds' lower end).
func (it *iterator) seekGE(x []byte) bool {
	if it.err != nil {
		return false
	}
	it.pos = -1
	if !below(x, it.upper) {
		return false
	}
	if bytes.Compare(x, it.wlo) >= 0 && below(x, it.whi) {
		i := sort.Search(len(it.win), func(i int) bool { return bytes.Compare(it.userKey(it.win[i]), x) >= 0 })
		if i < len(it.win) {
			it.pos = i
			return true
		}
		if it.whi == nil || !below(it.whi, it.upper) {
			return false // the window reaches the upper bound
		}
		x = it.whi
	}
	return it.land(it.readFrom(x), false)
}

// seekLT moves to the last entry < y (nil: the last entry within bounds).
func (it *iterator) seekLT(y []byte) bool {
	if it.err != nil {
		return false
	}
	it.pos = -1
	if y != nil && bytes.Compare(y, it.lower) <= 0 {
		return false
	}
	covered := it.whi == nil
	if y != nil {
		covered = bytes.Compare(it.wlo, y) < 0 && (it.whi == nil || bytes.Compare(y, it.whi) <= 0)
	}
	if covered {
		i := len(it.win)
		if y != nil {
			i = sort.Search(len(it.win), func(i int) bool { return bytes.Compare(it.userKey(it.win[i]), y) >= 0 })
		}
		if i > 0 {
			it.pos = i - 1
			return true
		}
		if bytes.Equal(it.wlo, it.lower) {
			return false // the window reaches the lower bound
		}
		y = it.wlo
	}
	return it.land(it.readBefore(y), true)
}

// land rests on the first entry of the window just read, or on its last
// when last, unless the read failed with err or found none.
func (it *iterator) land(err error, last bool) bool {
	if err != nil {
		return it.fail(err)
	}
	if len(it.win) == 0 {
		return false
	}
	it.pos = 0
	if last {
		it.pos = len(it.win) - 1
	}
	return true
}

func (it *iterator) First() bool { return it.seekGE(it.lower) }

func (it *iterator) Last() bool { return it.seekLT(it.upper) }

func (it *iterator) Seek(key []byte) bool {
	if bytes.Compare(key, it.lower) < 0 {
		key = it.lower
	}
	return it.seekGE(key)
}

func (it *iterator) Next() bool {
	if it.pos < 0 {
		return false
	}
	if it.pos+1 < len(it.win) {
		it.pos++
		return true
	}
	return it.seekGE(append(bytes.Clone(it.Key()), 0))
}

func (it *iterator) Prev() bool {
	if it.pos < 0 {
		return false
	}
	if it.pos > 0 {
		it.pos--
		return true
	}
	return it.seekLT(bytes.Clone(it.Key()))
}

func (it *iterator) Valid() bool { return it.pos >= 0 }

// Key returns the current key; it points into the page, which a later
// read replaces but never overwrites.
func (it *iterator) Key() []byte {
	if !it.Valid() {
		return nil
	}
	return it.userKey(it.win[it.pos])
}

func (it *iterator) Value() []byte {
	if !it.Valid() {
		return nil
	}
	return it.win[it.pos].Value
}

func (it *iterator) Err() error { return it.err }

// Close releases the iterator's revision to Compact; the engine's wrapper
// calls it once.
func (it *iterator) Close() error {
	it.win, it.pos = nil, -1
	it.d.unpin(it.rev)
	if it.err != nil {
		return fmt.Errorf("etcd: iterator: %w", it.err)
	}
	return nil
}
