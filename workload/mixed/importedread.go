package mixed

import (
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

// fileCheck checks a read of one series of an imported file against
// what writers had acknowledged when it began (fileAck): every entry a
// key of the series in the read's range, in increasing time, once, its
// value one of the encoding's; a read over a range that holds the
// latest acknowledged point must return that point as written; and a
// read over every acknowledged point must return as many as were
// acknowledged, whose digests sum to theirs. Points written since may
// appear, after the latest acknowledged.
type fileCheck struct {
	f *points.File
	a fileAck
	// from and to are the read's time range, to 0 for the series' end.
	from, to uint64
	// whole says the range holds every acknowledged point.
	whole bool
	read  int64  // entries that passed the key checks
	prev  uint64 // the timestamp of the last of them
	// got sums those at or before a.last; of a read not whole, only
	// the latest.
	got points.Sums
	// sawLast says the latest acknowledged point was read; wrong, that
	// a value was counted wrong already.
	sawLast bool
	wrong   bool
}

// checkRead is the check of a read of a series from timestamp from to
// to (0: to the series' end), writers having acknowledged a of it.
func (im *imported) checkRead(a fileAck, from, to uint64) fileCheck {
	return fileCheck{f: im.file, a: a, from: from, to: to,
		whole: a.n > 0 && from <= a.first && (to == 0 || to > a.last)}
}

func (fc *fileCheck) check(c *checker, key, val []byte) {
	c.v.Read++
	series, ts, seq, err := tskey.ParseKey(key)
	switch {
	case err != nil:
		c.unexpected("series %d: %v", c.series, err)
		return
	case series != uint64(c.series):
		c.unexpected("series %d: read a key of series %d", c.series, series)
		return
	case seq == 0 || ts < fc.from || fc.to != 0 && ts >= fc.to:
		c.unexpected("series %d (%s): point at %d (seq %d) is outside the read's range or never written", c.series, fc.f.Name(c.series), ts, seq)
		return
	case fc.read > 0 && ts <= fc.prev:
		c.unexpected("series %d (%s): point at %d (seq %d) read twice or out of order", c.series, fc.f.Name(c.series), ts, seq)
		return
	case c.strict && (fc.a.n == 0 || ts > fc.a.last):
		c.unexpected("series %d (%s): point at %d (seq %d) was never acknowledged", c.series, fc.f.Name(c.series), ts, seq)
		return
	}
	fc.read, fc.prev = fc.read+1, ts
	if bad := fc.f.CheckStored(c.series, val); bad != "" {
		fc.wrongValue(c, "point at %d (seq %d): %s", ts, seq, bad)
	}
	if fc.a.n == 0 || ts > fc.a.last {
		return // written since the read began
	}
	if !fc.whole && ts != fc.a.last {
		return
	}
	d := fc.got.Add(key, val)
	if ts == fc.a.last {
		fc.sawLast = true
		if d != fc.a.lastDigest && !fc.wrong {
			fc.wrongValue(c, "the latest acknowledged point, at %d (seq %d), is not the one written", ts, seq)
		}
	}
}

// wrongValue counts a value that is not the one written.
func (fc *fileCheck) wrongValue(c *checker, format string, args ...any) {
	fc.wrong = true
	c.v.Wrong++
	if !c.v.Noted() {
		c.v.Note("series %d (%s): "+format, append([]any{c.series, fc.f.Name(c.series)}, args...)...)
	}
}

// finish counts what the read should have returned and did not: the
// latest point, the acknowledged points of a whole read, or their sum.
func (fc *fileCheck) finish(c *checker) {
	a, name := fc.a, fc.f.Name(c.series)
	switch {
	case a.n == 0:
	case c.last && fc.read == 0:
		c.v.Missing++
		c.v.Note("series %d (%s): no latest point, but %d were acknowledged", c.series, name, a.n)
	case c.last && fc.prev < a.last:
		c.v.Missing++
		c.v.Note("series %d (%s): latest point at %d, but one at %d was acknowledged", c.series, name, fc.prev, a.last)
	case c.last:
	case fc.whole && fc.f.CheckSums(c.v, c.series, fc.got, points.Sums{N: a.n, Sum: a.sum}, fc.wrong, "acknowledged points"):
		// CheckSums counted it, a latest point not read among the missing.
	case !fc.sawLast && a.last >= fc.from && (fc.to == 0 || a.last < fc.to):
		c.v.Missing++
		c.v.Note("series %d (%s): the latest acknowledged point, at %d, not read", c.series, name, a.last)
	}
}

// fileQuery is the check of a query of series s of an imported file and
// its time range (to 0: to the series' end), chosen from what writers
// had acknowledged: a recent query reads from Window before the latest
// acknowledged point, a range query between two times drawn between the
// first and the latest.
func (rd *reader) fileQuery(kind int, s int64) (c checker, from, to uint64) {
	a := rd.r.file.acked(s)
	c = checker{v: &rd.w.verify[kind+1], series: s, file: &rd.fileCheck}
	switch querymix.QueryKinds[kind] {
	case querymix.KindLast:
		c.last = true
	case querymix.KindRecent:
		if a.n > 0 {
			from = a.last - min(a.last, uint64(rd.r.cfg.Window))
		}
	case querymix.KindRange:
		if a.n > 0 {
			x, y := a.first+rd.rng.Uint64N(a.last-a.first+1), a.first+rd.rng.Uint64N(a.last-a.first+1)
			from, to = min(x, y), max(x, y)+1
		}
	}
	rd.fileCheck = rd.r.file.checkRead(a, from, to)
	return c, from, to
}

// pickFileMulti is pickMulti of an imported file: the window ends after
// the latest point acknowledged of the series picked, or, when none has
// one, is the series' whole.
func (rd *reader) pickFileMulti() (from, end uint64) {
	for j := range rd.multi {
		s := rd.r.chooser.next(rd.rng)
		rd.multi[j], rd.fileAcked[j] = s, rd.r.file.acked(s)
		if a := rd.fileAcked[j]; a.n > 0 {
			end = max(end, a.last+1)
		}
	}
	return end - min(end, uint64(rd.r.cfg.Window)), end
}
