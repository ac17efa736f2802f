package engine

import "sync/atomic"

// BoundsSetter is implemented by iterators that take new bounds without
// being reopened, which saves creating an iterator per range when a query
// reads many small ranges (one per series). SetBounds leaves the iterator
// unpositioned; the caller may reuse the bounds' slices once it returns.
// Inverted bounds fail with ErrInvalidRange and leave it as it was.
// An iterator keeps its view across SetBounds, except that an iterator of
// an engine (not of a Snapshot) whose backend cannot reuse it is reopened
// and sees the engine as it is now: iterate a Snapshot when one view must
// span the ranges. Every iterator of an engine from Open implements it.
type BoundsSetter interface {
	SetBounds(opts IterOptions) error
}

// SetBounds gives it new bounds and leaves it unpositioned. It reuses it
// when it implements BoundsSetter, and otherwise closes it and returns a
// new iterator from r, the engine or snapshot it came from. Use the
// iterator it returns from then on and close it, even with an error, if
// it is not nil. Inverted bounds are refused with ErrInvalidRange (see
// CheckRange), and it is returned as it was.
func SetBounds(r Reader, it Iterator, opts IterOptions) (Iterator, error) {
	if err := CheckRange(opts.LowerBound, opts.UpperBound); err != nil {
		return it, err
	}
	if b, ok := it.(BoundsSetter); ok {
		return it, b.SetBounds(opts)
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	return r.NewIterator(opts)
}

// StandaloneIterator is a backend iterator that keeps the Iterator
// contract on its own, so that Open hands it out without the wrapper
// whose call per Next, Key and Value costs a scan several nanoseconds an
// entry: after Close its moves return false, Key and Value nil, Err
// ErrClosed and Close nil, and it has its own SetBounds, which refuses
// inverted bounds with CheckRange's error. It calls the function OnClose
// gave it once, when first closed, for the engine's count of open
// iterators.
type StandaloneIterator interface {
	Iterator
	BoundsSetter
	OnClose(func())
}

// wrapIter returns a backend's iterator, counted in open, as the caller
// gets it: as it is if it is a StandaloneIterator, otherwise in an iter.
// h is the engine it reads, whose latch refuses an iter's SetBounds.
func wrapIter(it Iterator, src Reader, open *atomic.Int64, h *handle) Iterator {
	open.Add(1)
	if s, ok := it.(StandaloneIterator); ok {
		s.OnClose(func() { open.Add(-1) })
		return s
	}
	return &iter{it: it, src: src, open: open, h: h}
}

// iter is the Iterator of an engine from Open: it turns use after Close
// into ErrClosed, uncounts itself once, and gives every backend SetBounds.
// Its moves are passed on without a look at the engine's latch, which
// would cost every step of a scan: an iterator reads the view it was
// made with, and a StandaloneIterator is not wrapped at all. SetBounds,
// which may open a new backend iterator, is refused once the engine broke.
type iter struct {
	it     Iterator
	src    Reader        // the backend's engine or snapshot that made it
	open   *atomic.Int64 // the count it is in
	h      *handle       // the engine it reads, for its latch
	closed bool
}

func (i *iter) First() bool          { return !i.closed && i.it.First() }
func (i *iter) Last() bool           { return !i.closed && i.it.Last() }
func (i *iter) Seek(key []byte) bool { return !i.closed && i.it.Seek(key) }
func (i *iter) Next() bool           { return !i.closed && i.it.Next() }
func (i *iter) Prev() bool           { return !i.closed && i.it.Prev() }
func (i *iter) Valid() bool          { return !i.closed && i.it.Valid() }

func (i *iter) Key() []byte {
	if i.closed {
		return nil
	}
	return i.it.Key()
}

func (i *iter) Value() []byte {
	if i.closed {
		return nil
	}
	return i.it.Value()
}

// AppendEntries implements EntryAppender with the backend iterator's own
// where it has one (AppendEntries finds it), and otherwise with moves.
func (i *iter) AppendEntries(dst []byte, max int, first bool) ([]byte, int, bool) {
	if i.closed {
		return dst, 0, false
	}
	return AppendEntries(i.it, dst, max, first)
}

func (i *iter) Err() error {
	if i.closed {
		return ErrClosed
	}
	return i.it.Err()
}

func (i *iter) Close() error {
	if i.closed {
		return nil
	}
	i.closed = true
	err := i.it.Close()
	i.open.Add(-1)
	return err
}

// SetBounds implements BoundsSetter with the backend's own, or by
// reopening the backend iterator; the count is unchanged either way, as
// the caller still holds one iterator. Inverted bounds are refused before
// the backend sees them, leaving the iterator as it was.
func (i *iter) SetBounds(opts IterOptions) error {
	if i.closed {
		return ErrClosed
	}
	if err := CheckRange(opts.LowerBound, opts.UpperBound); err != nil {
		return i.h.invalid("SetBounds", err)
	}
	if err := i.h.lim.CheckOrdered(opts.LowerBound, opts.UpperBound); err != nil {
		return i.h.invalid("SetBounds", err)
	}
	if err := i.h.failure(); err != nil {
		return err
	}
	it, err := SetBounds(i.src, i.it, opts)
	if err != nil && it == nil {
		it = failed{err}
	}
	i.it = it
	return i.h.latch(err)
}

// failed stands in for a backend iterator that could not be reopened, so
// that the iterator reports the error until it is closed.
type failed struct{ err error }

func (failed) First() bool      { return false }
func (failed) Last() bool       { return false }
func (failed) Seek([]byte) bool { return false }
func (failed) Next() bool       { return false }
func (failed) Prev() bool       { return false }
func (failed) Valid() bool      { return false }
func (failed) Key() []byte      { return nil }
func (failed) Value() []byte    { return nil }
func (f failed) Err() error     { return f.err }
func (f failed) Close() error   { return f.err }
