package engine

// Reader is what an Engine and a Snapshot share: point reads and
// iterators. Code that reads either takes a Reader.
type Reader interface {
	// Get returns a copy of the value stored under key, or an error
	// wrapping ErrNotFound.
	Get(key []byte) ([]byte, error)
	// NewIterator returns an iterator over the keys within opts' bounds.
	NewIterator(opts IterOptions) (Iterator, error)
}

// Snapshot is a consistent, read-only view of an engine at the moment it
// was taken: its Gets and all its iterators see the same state, whatever
// is written meanwhile (each iterator of an Engine sees its own). It is
// safe for concurrent use; its iterators follow the Iterator rules and
// keep its view across SetBounds. It counts as an open iterator: the
// engine's Close fails with ErrOpenIterators until it is closed, and its
// own Close fails so while its iterators are open. Calls after Close
// return ErrClosed, except a second Close, which returns nil.
type Snapshot interface {
	Reader
	Close() error
}

// Snapshotter is implemented by engines with native snapshots (LSM
// sequence numbers, MVCC read transactions).
type Snapshotter interface {
	NewSnapshot() (Snapshot, error)
}

// NewSnapshot returns a consistent view of e: its own if e implements
// Snapshotter (every engine from Open does, natively or not), otherwise
// one kept by a single open iterator over e. That fallback serves its Gets
// and iterators from the one iterator under a lock, copying each entry
// and seeking back whenever another call moved it, so interleaved
// iterators cost a seek per step.
func NewSnapshot(e Engine) (Snapshot, error) {
	if s, ok := e.(Snapshotter); ok {
		return s.NewSnapshot()
	}
	return newIterSnapshot(e, nil)
}

// NewSnapshot implements Snapshotter with the backend's own snapshot, or
// with the fallback over this handle, whose iterator it counts.
func (h *handle) NewSnapshot() (Snapshot, error) {
	if err := h.enter(); err != nil {
		return nil, err
	}
	ss, ok := h.be.(Snapshotter)
	if !ok {
		h.exit() // the fallback's iterator enters itself
		return newIterSnapshot(h, h)
	}
	defer h.exit()
	h.compactMu.RLock()
	defer h.compactMu.RUnlock()
	if err := h.failure(); err != nil {
		return nil, err
	}
	s, err := ss.NewSnapshot()
	if err != nil {
		return nil, h.latch(err)
	}
	h.open.Add(1)
	return &snapshot{h: h, s: s}, nil
}

// snapshot wraps a backend's snapshot with the rules on Close and keys,
// and the engine's latch: a broken engine refuses its calls too.
type snapshot struct {
	h *handle
	s Snapshot
	life
}

// enter is life's, refused too once the engine broke.
func (s *snapshot) enter() error {
	if err := s.life.enter(); err != nil {
		return err
	}
	if err := s.h.failure(); err != nil {
		s.exit()
		return err
	}
	return nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.exit()
	if !s.h.lim.fits(key) {
		return nil, ErrNotFound
	}
	v, err := s.s.Get(key)
	return v, s.h.latch(err)
}

func (s *snapshot) NewIterator(opts IterOptions) (Iterator, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.exit()
	if err := CheckRange(opts.LowerBound, opts.UpperBound); err != nil {
		return nil, s.h.invalid("Snapshot.NewIterator", err)
	}
	if err := s.h.lim.CheckOrdered(opts.LowerBound, opts.UpperBound); err != nil {
		return nil, s.h.invalid("Snapshot.NewIterator", err)
	}
	it, err := s.s.NewIterator(opts)
	if err != nil {
		return nil, s.h.latch(err)
	}
	return wrapIter(it, s.s, &s.open, s.h), nil
}

func (s *snapshot) Close() error {
	return s.shut(func() error {
		err := s.s.Close()
		s.h.open.Add(-1)
		return err
	})
}
