package timeseries

import (
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

// The steps on an imported file's points (-values FILE, points.File) in
// place of generated ones: the write steps stream the file (the second
// writes its first half again, later by the file's span), the delete
// step cuts every series at the file's cut-off (points.Survey), and a
// query checks each key it reads and each value's encoding, and each
// series' count and sum of digests against the file's: memory does not
// grow with the file.

// load makes cfg's values ready: an imported file's points, or the
// values of generated ones.
func load(v points.Values) (*points.Source, *points.File, error) {
	if v.Kind == points.Imported {
		f, err := v.Open()
		return nil, f, err
	}
	src, err := v.Load()
	return src, nil, err
}

// filler returns what fills r.batch with points [start, start+n) of a
// write step from point lo on, and what ends it.
func (r *runner) filler(lo int64) (fill func(start, n int64) error, end func() error, err error) {
	if r.file == nil {
		return func(start, n int64) error { r.batch.Fill(r.gen, start, n); return nil }, func() error { return nil }, nil
	}
	st, err := r.file.Stream(lo)
	if err != nil {
		return nil, nil, err
	}
	return func(_, n int64) error { return st.Fill(&r.batch, n) }, st.Close, nil
}

// point returns the key and encoded value of point i; of an imported
// file, streamed to it.
func (r *runner) point(i int64) (key, val []byte, err error) {
	if r.file == nil {
		series, ts, seq := r.gen.Point(i)
		return tskey.AppendKey(nil, series, ts, seq), r.gen.Encode(nil, seq), nil
	}
	st, err := r.file.Stream(i)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	var b points.Batch
	if err := st.Fill(&b, 1); err != nil {
		return nil, nil, err
	}
	return b.Key(0), b.Value(0), nil
}

// fileCut is the range the delete step deletes from series of an
// imported file, and how many points it holds.
func (r *runner) fileCut(series int64) (start, end []byte, n int64) {
	start, _ = tskey.SeriesBounds(r.bounds, uint64(series))
	all, _ := r.file.Expect(series, false)
	kept, _ := r.file.Expect(series, true)
	return start, r.file.DeleteBound(r.bounds[2*tskey.KeySize:2*tskey.KeySize], series), all - kept
}

// fileCheck checks one series' scan of an imported file: every key of
// the series in increasing order (after the delete step, none it
// deleted), every value one of the encoding's, and the count and sum of
// digests of the points read against the file's.
type fileCheck struct {
	f     *points.File
	after bool        // after the delete step
	want  points.Sums // the file's, of the points the read must return
	got   points.Sums // of the points read that were checked whole
	wrong bool        // a value was not the encoding's
	last  []byte
}

// fileCheck is the check of series in a query step, after the delete
// step or not.
func (r *runner) fileCheck(series int64, after bool) *fileCheck {
	c := &fileCheck{f: r.file, after: after}
	c.want.N, c.want.Sum = r.file.Expect(series, after)
	return c
}

func (fc *fileCheck) check(c *checker, key, val []byte) {
	series, ts, seq, err := tskey.ParseKey(key)
	switch {
	case err != nil:
		c.unexpected("series %d: %v", c.series, err)
		return
	case series != uint64(c.series):
		c.unexpected("series %d: iterator returned a key of series %d", c.series, series)
		c.past = series > uint64(c.series)
		return
	case seq == 0 || seq > uint64(fc.f.Points) || string(key) <= string(fc.last):
		c.unexpected("series %d: unexpected point seq %d (duplicated, out of order or never written)", c.series, seq)
		return
	case fc.after && !fc.f.Kept(ts, seq):
		c.unexpected("series %d: point seq %d was deleted", c.series, seq)
		return
	}
	fc.last = append(fc.last[:0], key...)
	if bad := fc.f.CheckStored(c.series, val); bad != "" {
		fc.wrong = true
		c.v.Wrong++
		c.v.Note("series %d (%s): point seq %d: %s", c.series, fc.f.Name(c.series), seq, bad)
	}
	fc.got.Add(key, val)
}

// finish counts the points missing from the series, or else a sum that
// is not the file's: a time or value the check could not see alone.
func (fc *fileCheck) finish(c *checker) {
	fc.f.CheckSums(c.v, c.series, fc.got, fc.want, fc.wrong, "points")
}
