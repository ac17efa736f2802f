// Package fault maps a backend library's errors onto the shared sentinels
// of package engine. It wraps rather than replaces them, so that
// errors.Is works whatever the engine and the library's own message, the
// one that says what happened, survives.
package fault

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/tsbench/storage/engine"
)

// Kinds says which of a library's errors mean what; a nil test matches
// nothing. A full disk (ENOSPC) is engine.ErrNoSpace for every library.
type Kinds struct {
	// Corrupt matches errors about damaged files.
	Corrupt func(error) bool
	// Locked matches errors about a directory another handle holds.
	Locked func(error) bool
	// TooLarge matches errors about a write larger than the library takes.
	TooLarge func(error) bool
}

// Wrap returns err wrapped with the sentinel it means, or err itself when
// it means none of them (or already wraps it).
func (k Kinds) Wrap(err error) error {
	var s error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, syscall.ENOSPC):
		s = engine.ErrNoSpace
	case k.Corrupt != nil && k.Corrupt(err):
		s = engine.ErrCorrupt
	case k.Locked != nil && k.Locked(err):
		s = engine.ErrLocked
	case k.TooLarge != nil && k.TooLarge(err):
		s = engine.ErrTooLarge
	default:
		return err
	}
	if errors.Is(err, s) {
		return err
	}
	return fmt.Errorf("%w: %w", s, err)
}
