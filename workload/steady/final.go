package steady

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

// seriesPrefix is the leading bytes of a key that name its series (or,
// bucket-major, its bucket): what an engine ordered only within prefixes
// (engine.OrderPrefix) must order by for the workload's reads, deletes
// and final check to lie each within one prefix.
const seriesPrefix = 8

// checkOrder refuses an engine ordered within prefixes of another length
// than seriesPrefix, in one line naming the fix.
func checkOrder(db engine.Engine) error {
	if n := engine.OrderPrefix(db); n != 0 && n != seriesPrefix {
		return fmt.Errorf("%w: the engine orders keys only within prefixes of %d bytes, and the steady workload reads and deletes a series within its first %d: give the engine a prefix length of %d",
			ErrInvalidConfig, n, seriesPrefix, seriesPrefix)
	}
	return nil
}

// finalCheck reads everything the store holds once writers, readers and
// retention have stopped, and expects exactly the committed points that
// did not expire. With MethodTTL, where expiry goes on meanwhile, it
// expects every committed point the engine must keep when the check
// ends, and sets ret's cutoff, expired and lingering points to what it
// found. On an imported file it is fileFinal; its error is one
// reading the file.
func (r *runner) finalCheck(ret *Retention) (*harness.Verification, error) {
	if r.file != nil {
		return r.fileFinal(ret)
	}
	m := r.m
	v := &harness.Verification{}
	done := r.gone(r.doneCut.Load())
	// ok counts the points read whole by their batch: with MethodTTL
	// the first batch that must be there is known only once the store
	// has been read.
	ok := make([]int32, r.batches)
	check := func(key, val []byte) {
		v.Read++
		series, ts, seq, err := m.layout.ParseKey(key)
		if err != nil || ts < points.Epoch || (ts-points.Epoch)%m.step != 0 {
			v.Wrong++
			v.Note("key %x is not a point's", key)
			return
		}
		rnd, j := int64((ts-points.Epoch)/m.step), int64(series)%m.series
		i := rnd*m.series + j
		switch life, dead := m.life(series); {
		case rnd < life || rnd >= dead || i >= r.batches*m.batch || (!m.layout.BucketMajor() && seq != uint64(i)+1):
			v.Wrong++
			v.Note("series %d, round %d: not a point of the run", series, rnd)
			return
		case !r.isDone(i / m.batch):
			v.Wrong++
			v.Note("series %d, round %d: its batch %d was never committed", series, rnd, i/m.batch)
			return
		case ts < done:
			v.Expired++
			v.Note("series %d, round %d: expired, retention deleted everything before round %d", series, rnd, m.roundAt(done))
			return
		}
		if bad := m.values.CheckValue(uint64(i)+1, val); bad != "" {
			v.Wrong++
			v.Note("series %d, round %d: %s", series, rnd, bad)
			return
		}
		ok[i/m.batch]++
	}
	r.store.engines(func(n uint64, db engine.Engine) {
		if err := r.readAll(n, db, check); err != nil {
			v.Note("shard %d: %v", n, err)
			v.Wrong++
		}
	})
	cut := m.roundAt(done) * m.series // the first point not expired
	if r.expiry > 0 {
		kept := r.kept(time.Now())
		cut = kept * m.batch
		ret.Cutoff = time.Duration(m.ts((cut+m.series-1)/m.series) - points.Epoch)
		// The committed points before cut, below: cut follows the wall
		// clock, and a writer behind the schedule left batches before it
		// unsent.
		ret.Expired = 0
	}
	var want, found int64
	for b := range r.batches {
		if r.isDone(b) {
			want += max(0, (b+1)*m.batch-max(cut, b*m.batch))
			if r.expiry > 0 && b < cut/m.batch {
				ret.Expired += m.batch
			}
		}
		// No point read whole lies before cut, but with MethodTTL:
		// there, the points the engine has not dropped yet.
		if b < cut/m.batch {
			ret.Lingering += int64(ok[b])
		} else {
			found += int64(ok[b])
		}
	}
	if found < want {
		v.Missing += want - found
		v.Note("%d of the %d committed points not expired were not found", want-found, want)
	}
	return v, nil
}

// readAll calls f with every entry db, the engine of shard n (or the
// single one), holds, in key order, memory flat. On an engine with one
// global order that is one scan of the whole key space, so that a key
// outside every series is read and reported too. An engine ordered only
// within prefixes (engine.OrderPrefix, Cassandra's partitions) serves no
// range wider than one: there the check reads the run's series one by
// one (per bucket and series with bucket-major keys), through one
// iterator moved on with engine.SetBounds, and can look only where they
// are.
func (r *runner) readAll(n uint64, db engine.Engine, f func(key, val []byte)) (err error) {
	m := r.m
	whole := engine.OrderPrefix(db) == 0
	var it engine.Iterator
	defer func() {
		if it != nil {
			err = errors.Join(err, it.Close())
		}
	}()
	read := func(lower, upper []byte) error {
		var err error
		if it == nil {
			it, err = db.NewIterator(engine.IterOptions{LowerBound: lower, UpperBound: upper})
		} else {
			it, err = engine.SetBounds(db, it, engine.IterOptions{LowerBound: lower, UpperBound: upper})
		}
		if err != nil {
			return err
		}
		for more := it.First(); more; more = it.Next() {
			f(it.Key(), it.Value())
		}
		return it.Err()
	}
	if whole {
		return read(nil, nil)
	}
	// The bounds go in turn into four buffers, so that none the iterator
	// holds is rewritten before it moves on.
	var bounds [4][tskey.KeySize]byte
	k := 0
	buf := func() []byte {
		k = (k + 1) % len(bounds)
		return bounds[k][:]
	}
	// series reads the range of the series whose keys begin with (a, b):
	// up to a+1 as a prefix of 8 bytes with series-major keys, the bound
	// an engine ordered within prefixes takes, and up to (a, b+1)
	// bucket-major.
	series := func(a, b uint64) error {
		lo := buf()
		tskey.PutKey(lo, a, b, 0)
		hi := buf()
		if !m.layout.BucketMajor() {
			binary.BigEndian.PutUint64(hi, a+1)
			return read(lo, hi[:seriesPrefix])
		}
		tskey.PutBucketKey(hi, a, b+1, 0)
		return read(lo, hi)
	}
	from, to := int64(0), r.rounds
	switch {
	case r.file != nil: // every series of the file, in every shard: any round lists them
		from, to = 0, 1
	case r.store.single == nil: // shard n's rounds
		from, to = m.roundAt(m.origin+n*m.width), min(to, m.roundAt(m.origin+(n+1)*m.width))
	}
	if !m.layout.BucketMajor() {
		m.ids(from, to, func(id uint64) {
			if err == nil {
				err = series(id, 0)
			}
		})
	} else {
		l := m.layout
		for b := l.Bucket(m.origin); err == nil && b <= l.Bucket(m.ts(to-1)); b++ {
			m.ids(max(from, m.roundAt(l.BucketStart(b))), min(to, m.roundAt(l.BucketStart(b+1))), func(id uint64) {
				if err == nil {
					err = series(b, id)
				}
			})
		}
	}
	return err
}
