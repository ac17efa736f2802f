package engine

import "fmt"

// Limits describes what an engine cannot do that the contract otherwise
// allows: the keys it cannot store, and compacting beside open iterators;
// and how many copies of its data its directory holds. A backend declares
// them in Driver.Limits or, when they depend on its options, returns them
// from a method Limits() Limits, which Open then uses instead. Open
// enforces them, so that every engine refuses the same way
// (ErrKeyNotSupported, ErrTooLarge, ErrOpenIterators) before the backend
// sees the call. The zero value is an engine with no such limits.
type Limits struct {
	// MinKeySize is the shortest key the engine stores: 1 for engines that
	// cannot store the empty key. Default 0.
	MinKeySize int
	// MaxKeySize is the longest key the engine stores, in bytes; 0 means
	// no limit of its own. Default 0.
	MaxKeySize int
	// ReservedPrefixes are key prefixes the engine keeps for its own
	// records. Default none.
	ReservedPrefixes []string
	// ExclusiveCompact says Compact cannot run while an iterator or a
	// snapshot is open (it replaces the files they read), so it fails
	// with ErrOpenIterators instead. Default false: Compact runs beside
	// them and they keep their view.
	ExclusiveCompact bool
	// Copies is how many full copies of its data the engine keeps in its
	// directory: the members of a local etcd cluster each hold one. A
	// check of the directory's size allows for each copy. Default 0,
	// which means 1.
	Copies int
}

// CommonLimits returns the limits every engine stays within: keys of 1 to
// 511 bytes (LMDB's limit, the smallest) outside Badger's reserved
// "!badger!" prefix, and Compact only with no iterator open. Code that
// keeps to them runs unchanged on every engine; the suite in enginetest
// fails an engine whose Limits are stricter.
func CommonLimits() Limits {
	return Limits{MinKeySize: 1, MaxKeySize: 511, ReservedPrefixes: []string{"!badger!"}, ExclusiveCompact: true}
}

// fits reports whether the engine can store key.
func (l *Limits) fits(key []byte) bool {
	if len(key) < l.MinKeySize || (l.MaxKeySize > 0 && len(key) > l.MaxKeySize) {
		return false
	}
	for _, p := range l.ReservedPrefixes {
		if len(key) >= len(p) && string(key[:len(p)]) == p {
			return false
		}
	}
	return true
}

// CheckKey returns nil if the engine can store key, else an error
// wrapping ErrTooLarge for a key longer than MaxKeySize or
// ErrKeyNotSupported for one outside the domain otherwise.
func (l Limits) CheckKey(key []byte) error {
	if l.fits(key) {
		return nil
	}
	switch {
	case len(key) < l.MinKeySize:
		return fmt.Errorf("%w: a key of %d bytes; this engine's keys are at least %d bytes long", ErrKeyNotSupported, len(key), l.MinKeySize)
	case l.MaxKeySize > 0 && len(key) > l.MaxKeySize:
		return fmt.Errorf("%w: a key of %d bytes; this engine's keys are at most %d bytes long, so shorten it", ErrTooLarge, len(key), l.MaxKeySize)
	}
	return fmt.Errorf("%w: key %.40q starts with a prefix the engine reserves (%q)", ErrKeyNotSupported, key, l.ReservedPrefixes)
}

// CopiesOf returns how many copies of its data e keeps in its directory
// (Limits.Copies), at least 1.
func CopiesOf(e Engine) int { return max(LimitsOf(e).Copies, 1) }

// LimitsOf returns the Limits of an engine opened with Open. Engines that
// do not say, such as engine/memory, report the zero Limits: they store
// any key.
func LimitsOf(e Engine) Limits {
	if l, ok := e.(interface{ Limits() Limits }); ok {
		return l.Limits()
	}
	return Limits{}
}
