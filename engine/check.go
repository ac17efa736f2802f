package engine

import "fmt"

// Checker is implemented by engines that can verify their own files
// (checksums, page structure) on demand, such as bbolt's Tx.Check or
// Badger's VerifyChecksum. Corruption it finds wraps ErrCorrupt.
type Checker interface {
	Check() error
}

// Check runs e's own integrity check: nil if it found nothing wrong, an
// error wrapping ErrCorrupt if it found damage, or ErrNotSupported for an
// engine that has no check of its own. It reads every file it checks, so
// it takes as long as reading the store once.
func Check(e Engine) error {
	c, ok := e.(Checker)
	if !ok {
		return fmt.Errorf("%w: %T has no integrity check", ErrNotSupported, e)
	}
	return c.Check()
}

// Check implements Checker with the backend's own check, or fails with
// ErrNotSupported.
func (h *handle) Check() error {
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	c, ok := h.be.(Checker)
	if !ok {
		return fmt.Errorf("%w: %s has no integrity check", ErrNotSupported, h.name)
	}
	if err := h.latch(c.Check()); err != nil {
		return fmt.Errorf("engine: check of %s: %w", h.name, err)
	}
	return nil
}
