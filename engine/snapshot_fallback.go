package engine

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/tsbench/storage/engine/internal/current"
)

// iterSnapshot is the Snapshot of an engine without its own: one
// unbounded iterator, whose view is the snapshot, shared under a lock by
// the snapshot's Gets and iterators.
type iterSnapshot struct {
	mu sync.Mutex
	it Iterator
	// h is the engine from Open it reads, whose latch refuses its Gets
	// and new iterators too; nil for another engine.
	h *handle
	// owner is the iterator the shared one rests on the entry of; any
	// other must seek back to its own entry before moving from it.
	owner  *snapIter
	open   int // iterators not yet closed
	closed bool
}

func newIterSnapshot(r Reader, h *handle) (*iterSnapshot, error) {
	it, err := r.NewIterator(IterOptions{})
	if err != nil {
		return nil, err
	}
	return &iterSnapshot{it: it, h: h}, nil
}

// refused returns the error that refuses a call: ErrClosed, or the
// engine's latched error.
func (s *iterSnapshot) refused() error {
	if s.closed {
		return ErrClosed
	}
	if s.h != nil {
		return s.h.failure()
	}
	return nil
}

func (s *iterSnapshot) Get(key []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refused(); err != nil {
		return nil, err
	}
	s.owner = nil
	if s.it.Seek(key) && bytes.Equal(s.it.Key(), key) {
		v := s.it.Value()
		return append(make([]byte, 0, len(v)), v...), nil
	}
	if err := s.it.Err(); err != nil {
		return nil, err
	}
	return nil, ErrNotFound
}

func (s *iterSnapshot) NewIterator(opts IterOptions) (Iterator, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refused(); err != nil {
		return nil, err
	}
	if err := CheckRange(opts.LowerBound, opts.UpperBound); err != nil {
		return nil, fmt.Errorf("engine: Snapshot.NewIterator: %w", err)
	}
	s.open++
	i := &snapIter{s: s}
	i.SetBounds(opts)
	return i, nil
}

func (s *iterSnapshot) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if s.open > 0 {
		return fmt.Errorf("%w (the snapshot has %d open)", ErrOpenIterators, s.open)
	}
	s.closed = true
	return s.it.Close()
}

// snapIter is an iterator of an iterSnapshot. It keeps a copy of the entry
// it rests on, since the shared iterator moves for others, and applies its
// bounds itself.
type snapIter struct {
	s            *iterSnapshot
	lower, upper []byte
	current.Entry
	closed bool
	err    error
}

// lock takes the snapshot's lock and returns the shared iterator, unless
// i is closed.
func (i *snapIter) lock() (Iterator, bool) {
	if i.closed {
		return nil, false
	}
	i.s.mu.Lock()
	return i.s.it, true
}

// settle rests i on the shared iterator's entry if the move that returned
// ok found one within bounds.
func (i *snapIter) settle(it Iterator, ok bool) bool {
	defer i.s.mu.Unlock()
	if ok && (i.upper == nil || bytes.Compare(it.Key(), i.upper) < 0) && bytes.Compare(it.Key(), i.lower) >= 0 {
		i.Copy(it.Key(), it.Value())
		i.s.owner = i
		return true
	}
	if err := it.Err(); err != nil && i.err == nil {
		i.err = err
	}
	i.Clear()
	i.s.owner = nil // the move left the shared iterator on no one's entry
	return false
}

// refind seeks the shared iterator back to i's entry if another call
// moved it; the entry is in the snapshot, so it is found unless the
// iterator failed.
func (i *snapIter) refind(it Iterator) bool {
	return i.s.owner == i || (it.Seek(i.Key()) && bytes.Equal(it.Key(), i.Key()))
}

func (i *snapIter) First() bool {
	it, ok := i.lock()
	if !ok {
		return false
	}
	if len(i.lower) == 0 {
		return i.settle(it, it.First())
	}
	return i.settle(it, it.Seek(i.lower))
}

func (i *snapIter) Last() bool {
	it, ok := i.lock()
	if !ok {
		return false
	}
	switch {
	case i.upper == nil:
		return i.settle(it, it.Last())
	case it.Seek(i.upper):
		return i.settle(it, it.Prev())
	case it.Err() != nil:
		return i.settle(it, false)
	}
	return i.settle(it, it.Last()) // nothing at or past upper
}

func (i *snapIter) Seek(key []byte) bool {
	it, ok := i.lock()
	if !ok {
		return false
	}
	if bytes.Compare(key, i.lower) < 0 {
		key = i.lower
	}
	return i.settle(it, it.Seek(key))
}

func (i *snapIter) Next() bool {
	if !i.Valid() {
		return false
	}
	it, _ := i.lock()
	return i.settle(it, i.refind(it) && it.Next())
}

func (i *snapIter) Prev() bool {
	if !i.Valid() {
		return false
	}
	it, _ := i.lock()
	return i.settle(it, i.refind(it) && it.Prev())
}

func (i *snapIter) Err() error {
	if i.closed {
		return ErrClosed
	}
	return i.err
}

// SetBounds implements BoundsSetter: the bounds are i's own, and the view
// stays the snapshot's.
func (i *snapIter) SetBounds(opts IterOptions) error {
	if i.closed {
		return ErrClosed
	}
	if err := CheckRange(opts.LowerBound, opts.UpperBound); err != nil {
		return fmt.Errorf("engine: SetBounds: %w", err)
	}
	i.lower = append(i.lower[:0], opts.LowerBound...)
	i.upper = nil
	if opts.UpperBound != nil {
		i.upper = append([]byte{}, opts.UpperBound...)
	}
	i.Clear()
	return nil
}

func (i *snapIter) Close() error {
	if i.closed {
		return nil
	}
	i.closed = true
	i.Clear()
	i.s.mu.Lock()
	i.s.open--
	if i.s.owner == i {
		i.s.owner = nil
	}
	i.s.mu.Unlock()
	return i.err
}
