package kyotocabinet

import (
	"bytes"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tsbench/storage/engine"
)

// Kyoto Cabinet has no snapshots: a cursor sees every write made while it
// walks. An iterator gets one by keeping, from its creation on, the value
// each key had before its first write since: writers record it in the
// iterator's view before writing, so a key the cursor meets is either
// unwritten since the snapshot (the cursor's value is the snapshot's) or
// recorded (the view's value is). The cost falls on writes made while
// iterators are open, one read per written key; with none open, a write
// pays one atomic load.

// view is one iterator's record of the snapshot values of keys written
// since it was created, within its bounds.
type view struct {
	lower, upper []byte
	// n counts recorded keys, so that an iterator skips the lookup while
	// nothing was written.
	n  atomic.Int64
	mu sync.Mutex
	// old maps each recorded key to its snapshot value; absent keys
	// (written after the snapshot) map to gone.
	old map[string]snapValue
	// present holds the recorded keys that had a value, sorted: the
	// iterator merges them with the cursor, which no longer sees those
	// that were deleted.
	present [][]byte
}

type snapValue struct {
	v    []byte
	gone bool
}

// covers reports whether key is within the view's bounds.
func (v *view) covers(key []byte) bool {
	return (v.lower == nil || bytes.Compare(key, v.lower) >= 0) &&
		(v.upper == nil || bytes.Compare(key, v.upper) < 0)
}

// recorded reports whether key was recorded.
func (v *view) recorded(key []byte) bool {
	if v.n.Load() == 0 {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	_, ok := v.old[string(key)]
	return ok
}

// record keeps val (nil and !ok: key had no value) as key's snapshot
// value unless one is recorded already. It copies key and val.
func (v *view) record(key, val []byte, ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, seen := v.old[string(key)]; seen {
		return
	}
	if v.old == nil {
		v.old = map[string]snapValue{}
	}
	if !ok {
		v.old[string(key)] = snapValue{gone: true}
	} else {
		k := bytes.Clone(key)
		v.old[string(k)] = snapValue{v: append([]byte{}, val...)}
		i, _ := slices.BinarySearchFunc(v.present, k, bytes.Compare)
		v.present = slices.Insert(v.present, i, k)
	}
	v.n.Add(1)
}

// next returns the first recorded key with a value after from (at or
// after it if inclusive), and that value, if within the upper bound.
func (v *view) next(from []byte, inclusive bool) (key, val []byte, ok bool) {
	if v.n.Load() == 0 {
		return nil, nil, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	i, found := slices.BinarySearchFunc(v.present, from, bytes.Compare)
	if found && !inclusive {
		i++
	}
	if i == len(v.present) || (v.upper != nil && bytes.Compare(v.present[i], v.upper) >= 0) {
		return nil, nil, false
	}
	k := v.present[i]
	return k, v.old[string(k)].v, true
}

// prev returns the last recorded key with a value before from (at or
// before it if inclusive; nil from is no limit), if within the lower
// bound.
func (v *view) prev(from []byte, inclusive bool) (key, val []byte, ok bool) {
	if v.n.Load() == 0 {
		return nil, nil, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	i := len(v.present)
	if from != nil {
		var found bool
		i, found = slices.BinarySearchFunc(v.present, from, bytes.Compare)
		if found && inclusive {
			i++
		}
	}
	if i == 0 || (v.lower != nil && bytes.Compare(v.present[i-1], v.lower) < 0) {
		return nil, nil, false
	}
	k := v.present[i-1]
	return k, v.old[string(k)].v, true
}

// views is the set of open iterators' views, which DB embeds.
type views struct {
	mu  sync.Mutex
	set map[*view]struct{}
	n   atomic.Int64 // len(set), read without mu by writers
}

func (vs *views) add(v *view) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if vs.set == nil {
		vs.set = map[*view]struct{}{}
	}
	vs.set[v] = struct{}{}
	vs.n.Store(int64(len(vs.set)))
}

func (vs *views) remove(v *view) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	delete(vs.set, v)
	vs.n.Store(int64(len(vs.set)))
}

// preserve records key's current value in every open view that covers key
// and has not recorded it, before a write changes it. The caller holds
// rw for writing.
func (d *DB) preserve(key []byte) error {
	if d.views.n.Load() == 0 {
		return nil
	}
	var val []byte
	read, found := false, false
	d.views.mu.Lock()
	defer d.views.mu.Unlock()
	for v := range d.views.set {
		if !v.covers(key) || v.recorded(key) {
			continue
		}
		if !read {
			var err error
			val, err = d.get(key)
			switch {
			case err == nil:
				found = true
			case !errors.Is(err, engine.ErrNotFound):
				return err
			}
			read = true
		}
		v.record(key, val, found)
	}
	return nil
}

// keep records key's current value, known to the caller, in every open
// view that covers key and has not recorded it.
func (d *DB) keep(key, val []byte, ok bool) {
	if d.views.n.Load() == 0 {
		return
	}
	d.views.mu.Lock()
	defer d.views.mu.Unlock()
	for v := range d.views.set {
		if v.covers(key) {
			v.record(key, val, ok)
		}
	}
}
