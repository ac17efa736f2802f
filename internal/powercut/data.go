package powercut

import (
	"cmp"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"

	"golang.org/x/sys/unix"
)

// blockSize is the unit a torn Cut persists or drops, a page of the
// devices the model stands for.
const blockSize = 4096

// extent is the byte range [off, end) of a file.
type extent struct{ off, end int64 }

// extents is a sorted set of disjoint, non-adjacent byte ranges.
type extents []extent

// add returns the set with [off, end) added, merging what it touches.
func (s extents) add(off, end int64) extents {
	if off >= end {
		return s
	}
	i := sort.Search(len(s), func(i int) bool { return s[i].end >= off })
	j := i
	for j < len(s) && s[j].off <= end {
		off, end = min(off, s[j].off), max(end, s[j].end)
		j++
	}
	return slices.Replace(s, i, j, extent{off, end})
}

// pending is what changed in a file's data since its last sync.
type pending struct {
	writes extents // ranges written; their bytes come from the live copy
	// resized says the length changed other than by writing past the
	// end; shortest is the smallest length set since the last sync
	// (math.MaxInt64 if it only grew). A sync cuts the durable file to
	// shortest before growing it to the live length, so a shrink and
	// regrow leaves zeros in the durable copy as it does in the live one.
	resized  bool
	shortest int64
}

func (p pending) empty() bool { return len(p.writes) == 0 && !p.resized }

// noPending is the state right after a sync.
var noPending = pending{shortest: math.MaxInt64}

// write records that [off, end) was written.
func (o *object) write(off, end int64) {
	o.mu.Lock()
	o.pending.writes = o.pending.writes.add(off, end)
	o.mu.Unlock()
}

// resize records that the length was set to size.
func (o *object) resize(size int64) {
	o.mu.Lock()
	o.pending.resized = true
	o.pending.shortest = min(o.pending.shortest, size)
	o.mu.Unlock()
}

// allocate records a successful fallocate(2) with mode.
func (o *object) allocate(off, size int64, mode uint32) {
	switch {
	case mode&(unix.FALLOC_FL_COLLAPSE_RANGE|unix.FALLOC_FL_INSERT_RANGE) != 0:
		// The data from off on moved.
		o.write(off, math.MaxInt64)
	case mode&(unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_ZERO_RANGE) != 0:
		o.write(off, off+size)
	}
	if mode&unix.FALLOC_FL_KEEP_SIZE == 0 {
		o.mu.Lock()
		o.pending.resized = true
		o.mu.Unlock()
	}
}

// take returns the pending changes and starts a new, empty set.
func (o *object) take() pending {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.pending
	o.pending = noPending
	return p
}

// giveBack merges changes a failed sync took back into the pending set.
func (o *object) giveBack(p pending) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, w := range p.writes {
		o.pending.writes = o.pending.writes.add(w.off, w.end)
	}
	o.pending.resized = o.pending.resized || p.resized
	o.pending.shortest = min(o.pending.shortest, p.shortest)
}

// copyPending makes the object's pending data changes durable, reading
// the data from src, a path to the live file.
func (d *disk) copyPending(o *object, src string) error {
	o.syncMu.Lock()
	defer o.syncMu.Unlock()
	if o.dead {
		return nil
	}
	p := o.take()
	if p.empty() {
		return nil
	}
	if err := d.writeDurable(o.id, src, p); err != nil {
		o.giveBack(p)
		return err
	}
	return nil
}

// writeDurable applies p to the durable data file of object id.
func (d *disk) writeDurable(id uint64, src string, p pending) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	out, err := os.OpenFile(d.dataPath(id), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	if p.resized && p.shortest < size {
		if err := out.Truncate(p.shortest); err != nil {
			return err
		}
	}
	if err := out.Truncate(size); err != nil {
		return err
	}
	for _, w := range p.writes {
		if err := copyRange(out, in, w.off, min(w.end, size)); err != nil {
			return err
		}
	}
	return out.Close()
}

// copyRange copies [off, end) of src to the same offsets of dst inside
// the kernel (a reflink where the file system can). A source shorter than
// end, cut by a concurrent truncate, ends the copy early.
func copyRange(dst, src *os.File, off, end int64) error {
	for off < end {
		in, out := off, off
		n, err := unix.CopyFileRange(int(src.Fd()), &in, int(dst.Fd()), &out, int(min(end-off, 1<<30)), 0)
		if err != nil {
			return &os.PathError{Op: "copy_file_range", Path: dst.Name(), Err: err}
		}
		if n == 0 {
			return nil
		}
		off += int64(n)
	}
	return nil
}

// copyFile copies src to a new file dst, keeping holes as holes: a
// sparse map file of LMDB stays sparse in the live copy.
func copyFile(dst, src string, perm fs.FileMode) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer out.Close()
	in, err := os.Open(src)
	if errors.Is(err, fs.ErrNotExist) {
		// Never synced: durably empty.
		return out.Close()
	}
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	for off := int64(0); off < size; {
		data, err := unix.Seek(int(in.Fd()), off, unix.SEEK_DATA)
		if errors.Is(err, unix.ENXIO) {
			break // only a hole is left
		}
		if err != nil {
			return &os.PathError{Op: "seek", Path: src, Err: err}
		}
		hole, err := unix.Seek(int(in.Fd()), data, unix.SEEK_HOLE)
		if err != nil {
			return &os.PathError{Op: "seek", Path: src, Err: err}
		}
		if err := copyRange(out, in, data, hole); err != nil {
			return err
		}
		off = hole
	}
	if err := out.Truncate(size); err != nil {
		return err
	}
	return out.Close()
}

// tear persists a seeded random half of the pending written blocks of
// every file that has a live name, as Options.Torn describes. It runs
// with the gate held for writing, so no sync runs alongside.
func (d *disk) tear() error {
	d.mu.Lock()
	paths := d.livePaths()
	d.mu.Unlock()
	files := make([]*object, 0, len(paths))
	for o := range paths {
		if o.isRegular() {
			files = append(files, o)
		}
	}
	// Visit files in a fixed order so that a seed picks the same blocks.
	slices.SortFunc(files, func(a, b *object) int { return cmp.Compare(a.id, b.id) })
	rng := rand.New(rand.NewPCG(uint64(d.opts.Seed), 0))
	var errs []error
	for _, o := range files {
		o.mu.Lock()
		p := o.pending
		p.writes = slices.Clone(p.writes)
		o.mu.Unlock()
		if len(p.writes) > 0 {
			errs = append(errs, d.tearFile(rng, o.id, d.livePath(paths[o]), p))
		}
	}
	return errors.Join(errs...)
}

// tearFile persists, for each 4 KiB block that pending writes touch
// inside the durable length, the live block with probability 1/2.
func (d *disk) tearFile(rng *rand.Rand, id uint64, src string, p pending) error {
	out, err := os.OpenFile(d.dataPath(id), os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing durable to tear
	}
	if err != nil {
		return err
	}
	defer out.Close()
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	durable, err := out.Stat()
	if err != nil {
		return err
	}
	live, err := in.Stat()
	if err != nil {
		return err
	}
	// Below limit the live bytes are the durable ones plus the pending
	// writes: no pending truncation reaches there.
	limit := min(durable.Size(), live.Size(), p.shortest)
	next := int64(0) // first block not yet decided
	for _, w := range p.writes {
		for b := max(w.off/blockSize*blockSize, next); b < w.end && b < limit; b += blockSize {
			next = b + blockSize
			if rng.IntN(2) == 0 {
				continue
			}
			if err := copyRange(out, in, b, min(b+blockSize, limit)); err != nil {
				return err
			}
		}
	}
	return out.Close()
}
