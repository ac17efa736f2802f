package cassandra

import "bytes"

// split returns key's partition key, its first PrefixLength bytes (all of
// a shorter key, which only the byte-ordered layout stores), and its
// clustering value, the rest. Both alias key.
func (d *DB) split(key []byte) (p, c []byte) {
	n := min(d.l.PrefixLength, len(key))
	// An empty clustering value is stored as such, never as null.
	return key[:n], key[n:len(key):len(key)]
}

// clusterRange returns the clustering values of partition p that lie in
// [lower, upper) (nil: unbounded): cl inclusive and cu exclusive, nil for
// no bound, and whether any does. A partition's keys are p followed by
// its clustering values, so where p is a proper prefix of a bound the
// bound's rest bounds them, and otherwise p alone decides.
func clusterRange(p, lower, upper []byte) (cl, cu []byte, ok bool) {
	if lower != nil {
		switch {
		case len(lower) > len(p) && bytes.HasPrefix(lower, p):
			cl = lower[len(p):]
		case bytes.Compare(p, lower) < 0:
			return nil, nil, false
		}
	}
	if upper != nil {
		switch {
		case len(upper) > len(p) && bytes.HasPrefix(upper, p):
			cu = upper[len(p):]
		case bytes.Compare(p, upper) >= 0:
			return nil, nil, false
		}
	}
	return cl, cu, true
}

// join returns p followed by c in a new slice.
func join(p, c []byte) []byte {
	k := make([]byte, 0, len(p)+len(c))
	return append(append(k, p...), c...)
}
