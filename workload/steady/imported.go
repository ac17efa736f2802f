package steady

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

// fileRun is what a run on an imported file (-values FILE, points.File)
// knows of it: the file's series and their sums, and each scheduled
// batch's front in data time. The file is streamed, never held.
type fileRun struct {
	f *points.File
	// front[b] is the latest timestamp of points [0, (b+1)*Batch): the
	// data's front once every batch up to b is committed.
	front []uint64
	batch int64
}

// openFile reads the surveyed file of cfg, defaults filled in, for a run
// of batches batches: its series (points.Values.Open), then the batches'
// fronts, and returns it with the earliest timestamp of those batches,
// the run's origin. A point further behind the latest before it than
// the retention window less a bucket could be written after retention
// deleted its time, and read as expired: such a file is refused
// (ErrInvalidConfig), as a late window that long is.
func openFile(cfg Config, batches int64) (*fileRun, uint64, error) {
	f, err := cfg.Values.Open()
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	fr := &fileRun{f: f, front: make([]uint64, batches), batch: cfg.Batch}
	origin, front := uint64(math.MaxUint64), uint64(0)
	var lag uint64 // how far a point lies behind the latest before it
	var line int64
	err = fr.each(batches*cfg.Batch, func(i int64, key, _ []byte) {
		_, ts, _, _ := tskey.ParseKey(key) // a key the stream made
		if i > 0 && ts < front && front-ts > lag {
			lag, line = front-ts, i
		}
		origin, front = min(origin, ts), max(front, ts)
		fr.front[i/cfg.Batch] = front
	})
	switch {
	case err != nil:
		return nil, 0, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	case lag > 0 && lag >= uint64(cfg.Retention-cfg.BucketWidth):
		return nil, 0, fmt.Errorf("%w: -values %s: point %d is %v behind the latest before it, not less than -retention %v less a bucket (%v), so retention could delete its time before it is written: raise -retention, or sort the file by time",
			ErrInvalidConfig, cfg.Values.File, line+1, time.Duration(lag), cfg.Retention, cfg.Retention-cfg.BucketWidth)
	}
	return fr, origin, nil
}

// each streams the file's first n points, a whole number of batches, to
// f with their index, key and encoded value.
func (fr *fileRun) each(n int64, f func(i int64, key, val []byte)) error {
	st, err := fr.f.Stream(0)
	if err != nil {
		return err
	}
	defer st.Close()
	var b points.Batch
	for i := int64(0); i < n; i += fr.batch {
		if err := st.Fill(&b, fr.batch); err != nil {
			return err
		}
		for j := range b.Len() {
			f(i+int64(j), b.Key(j), b.Value(j))
		}
	}
	return nil
}

// expired is how many points lie in the batches wholly before data time
// done: the points retention surely deleted, as far as the fronts tell.
func (fr *fileRun) expired(done uint64) int64 {
	return int64(sort.Search(len(fr.front), func(b int) bool { return fr.front[b] >= done })) * fr.batch
}

// fillFile reads batch b of the file into the writer's buffers. The
// writer's stream is at its next batch, w.at, at or before b: the
// batches of the other writers between are skipped.
func (w *writer) fillFile(b int64) error {
	n := w.r.m.batch
	for ; w.at < b; w.at++ {
		if err := w.stream.Fill(&w.read, n); err != nil {
			return err
		}
	}
	if err := w.stream.Fill(&w.read, n); err != nil {
		return err
	}
	w.at++
	for j := range w.read.Len() {
		w.keys = append(w.keys, w.read.Key(j)...)
		w.vals = append(w.vals, w.read.Value(j)...)
		w.ends = append(w.ends, len(w.vals))
		w.order = append(w.order, j)
	}
	return nil
}

// fileCheck verifies a read of one series of an imported file by its
// keys and encodings: every point of the series and range, in increasing
// order, of a scheduled batch, not one retention had deleted before the
// read began, with a value of the series' encoding. Which points a range
// of a file's series holds is not known without the file, so the points
// a read misses are the final check's to find, by count and digest.
type fileCheck struct {
	f                  *points.File
	v                  *harness.Verification
	id, from, to, done uint64
	points             uint64 // scheduled
	last               [tskey.KeySize]byte
	read               bool // last holds a key
}

func (c *fileCheck) reset(r *runner, id, from, to, done uint64, v *harness.Verification) {
	c.f, c.v, c.id, c.from, c.to, c.done = r.file.f, v, id, from, to, done
	c.points, c.read = uint64(r.batches*r.m.batch), false
}

// entry checks one point read.
func (c *fileCheck) entry(key, val []byte) {
	v := c.v
	v.Read++
	unexpected := func(format string, args ...any) {
		v.Unexpected++
		v.Note("series %d (%s): "+format, append([]any{c.id, c.f.Name(int64(c.id))}, args...)...)
	}
	series, ts, seq, err := tskey.ParseKey(key)
	switch {
	case err != nil:
		unexpected("%v", err)
		return
	case series != c.id:
		unexpected("read a point of series %d", series)
		return
	case ts < c.from || ts >= c.to:
		unexpected("timestamp %d outside the range [%d, %d) asked for", ts, c.from, c.to)
		return
	case seq == 0 || seq > c.points:
		unexpected("sequence %d is no scheduled point's", seq)
		return
	case c.read && bytes.Compare(key, c.last[:]) <= 0:
		unexpected("point %d read out of order or twice", seq)
		return
	}
	copy(c.last[:], key)
	c.read = true
	if ts < c.done {
		v.Expired++
		v.Note("series %d (%s): read point %d (timestamp %d), which retention had deleted (everything before %d)", c.id, c.f.Name(int64(c.id)), seq, ts, c.done)
	}
	if bad := c.f.CheckStored(int64(c.id), val); bad != "" {
		v.Wrong++
		v.Note("series %d (%s): point %d: %s", c.id, c.f.Name(int64(c.id)), seq, bad)
	}
}

// fileFinal is the final check on an imported file: it reads the store
// (readAll), checking each key and encoding and summing what it finds of
// each series, then streams the file's scheduled points to sum
// what each series must hold (its committed points not expired), and
// compares the two, count and digest, series by series. It sets ret's
// expired points to those the file's stream found before the cutoff.
func (r *runner) fileFinal(ret *Retention) (*harness.Verification, error) {
	m, f := r.m, r.file.f
	v := &harness.Verification{}
	done := r.doneCut.Load()
	// got and want are each series' points found and due; bad says a
	// value found was not the encoding's, which shows in the sum already.
	got, want, bad := make([]points.Sums, m.series), make([]points.Sums, m.series), make([]bool, m.series)
	scheduled := uint64(r.batches * m.batch)
	check := func(key, val []byte) {
		v.Read++
		series, ts, seq, err := tskey.ParseKey(key)
		switch {
		case err != nil || series >= uint64(m.series) || seq == 0 || seq > scheduled:
			v.Wrong++
			v.Note("key %x is not a point of the run", key)
			return
		case !r.isDone(int64(seq-1) / m.batch):
			v.Wrong++
			v.Note("series %d (%s), point %d: its batch %d was never committed", series, f.Name(int64(series)), seq, int64(seq-1)/m.batch)
			return
		case ts < done:
			v.Expired++
			v.Note("series %d (%s), point %d: expired, retention deleted everything before %d", series, f.Name(int64(series)), seq, done)
			return
		}
		if why := f.CheckStored(int64(series), val); why != "" {
			v.Wrong++
			v.Note("series %d (%s), point %d: %s", series, f.Name(int64(series)), seq, why)
			bad[series] = true
		}
		got[series].Add(key, val)
	}
	r.store.engines(func(n uint64, db engine.Engine) {
		if err := r.readAll(n, db, check); err != nil {
			v.Note("shard %d: %v", n, err)
			v.Wrong++
		}
	})
	ret.Expired = 0
	err := r.file.each(int64(scheduled), func(i int64, key, val []byte) {
		if !r.isDone(i / m.batch) {
			return
		}
		series, ts, _, _ := tskey.ParseKey(key) // a key the stream made
		if ts < done {
			ret.Expired++
			return
		}
		want[series].Add(key, val)
	})
	if err != nil {
		return v, fmt.Errorf("final check: %w", err)
	}
	for s := range want {
		f.CheckSums(v, int64(s), got[s], want[s], bad[s], "committed points not expired")
	}
	return v, nil
}

// validateFile reports the first setting of c, d with its defaults
// filled in, that cannot run on an imported file, naming the fix; nil
// without a file, and for a duration or batch Validate refuses anyway.
func (c Config) validateFile(d Config) error {
	if !c.imported() || c.Duration <= 0 || c.Batch <= 0 {
		return nil
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	name := c.Values.File
	switch im := c.Values.Import; {
	case im == nil:
		return bad("-values %s: the file is not checked yet: survey it first (points.Values.Survey)", name)
	case c.Series != im.Series:
		return bad("-series %d with -values %s, which holds %d series: the file's series are the run's", c.Series, name, im.Series)
	case d.Method == MethodBucket:
		return bad("-retention-method bucket does not run on a file: its keys count buckets from the generated points' first time (points.Layout), which a file's may precede; use delete or shards")
	case d.Method == MethodTTL:
		return bad("-retention-method ttl does not run on a file: the engine's expiry moves on while the final check sums each series against one cutoff; use delete or shards")
	case c.Late > 0 || c.Churn > 0:
		return bad("-late and -churn with -values %s: a file's points arrive in its order, and its series are its own: leave them out", name)
	case im.Points < 2:
		return bad("-values %s holds a single point, and the steady workload writes two batches at least: give a file of more points", name)
	case d.batches() < 2:
		return bad("-values %s: the %d points -rate %g and -duration %v schedule of it are fewer than two batches of %d: lower -batch, or raise -rate or -duration", name, min(im.Points, int64(d.Rate*d.Duration.Seconds())), d.Rate, d.Duration, d.Batch)
	case d.Retention < time.Second || d.Retention >= d.dataTime():
		return bad("-retention %v with -values %s, whose points span %v of data time in the part -rate and -duration schedule: give a window of at least 1s and shorter than that, so that data expires",
			d.Retention, name, d.dataTime().Round(time.Millisecond))
	}
	return nil
}
