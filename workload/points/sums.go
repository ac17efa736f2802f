package points

import "github.com/tsbench/storage/workload/harness"

// Sums are the count of a series' points and the sum of their digests
// (Digest): what a read of a series of an imported file is compared by
// against the file's, in constant memory.
type Sums struct {
	N   int64
	Sum uint64
}

// Add counts the point of key and encoded value val and returns its
// digest.
func (s *Sums) Add(key, val []byte) uint64 {
	d := Digest(key, val)
	s.N++
	s.Sum += d
	return d
}

// CheckSums records in v how got, the sums of the points a read of
// series s returned, differ from want, the file's sums of the points it
// should have returned, which what names ("acknowledged points"): the
// points missing, else those unexpected, else, the counts equal, one
// wrong when the sums differ and no value of the series was counted
// wrong already (wrong), since that one shows in the sum. It notes the
// difference once, naming the series, and reports whether there was one.
func (f *File) CheckSums(v *harness.Verification, s int64, got, want Sums, wrong bool, what string) bool {
	switch {
	case got.N < want.N:
		v.Missing += want.N - got.N
		v.Note("series %d (%s): %d of its %d %s missing", s, f.Name(s), want.N-got.N, want.N, what)
	case got.N > want.N:
		v.Unexpected += got.N - want.N
		v.Note("series %d (%s): %d %s read, not %d", s, f.Name(s), got.N, what, want.N)
	case got.Sum != want.Sum && !wrong:
		v.Wrong++
		v.Note("series %d (%s): its %d %s are not the file's: a time or value differs", s, f.Name(s), got.N, what)
	default:
		return false
	}
	return true
}
