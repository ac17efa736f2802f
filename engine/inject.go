package engine

import (
	"errors"
	"fmt"

	"github.com/tsbench/storage/engine/internal/inject"
)

func init() { inject.Broken = injectBroken }

// injectBroken is inject.Broken, which says what it does.
func injectBroken(v any, err error) error {
	if !errors.Is(err, ErrBroken) {
		panic(fmt.Sprintf("engine: inject.Broken with %q, which does not wrap ErrBroken", err))
	}
	s, ok := v.(interface{ self() *handle })
	if !ok {
		return fmt.Errorf("%w: inject.Broken on %T, which was not opened with engine.Open", ErrNotSupported, v)
	}
	h := s.self()
	// Held exclusively, as Close does, so that every call after this one
	// sees the new backend: each reads h.be only while it holds mu shared.
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed() {
		return ErrClosed
	}
	h.be = &failing{Backend: h.be, err: err}
	return nil
}

func (h *handle) self() *handle { return h }

// failing is the backend injectBroken puts in place of the real one,
// which it closes.
type failing struct {
	Backend
	err error
}

func (f *failing) Get([]byte) ([]byte, error)                { return nil, f.err }
func (f *failing) NewIterator(IterOptions) (Iterator, error) { return nil, f.err }
func (f *failing) Put(_, _ []byte) error                     { return f.err }
func (f *failing) Delete([]byte) error                       { return f.err }
func (f *failing) DeleteRange(_, _ []byte) error             { return f.err }
func (f *failing) Compact(_, _ []byte) error                 { return f.err }

// Flush and Busy are there for an engine that has them: the handle
// reaches them by type assertion on its backend.
func (f *failing) Flush() error        { return f.err }
func (f *failing) Busy() (bool, error) { return false, f.err }
