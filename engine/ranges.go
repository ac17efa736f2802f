package engine

import (
	"bytes"
	"fmt"
)

// CheckRange returns nil if [start, end) is a range as DeleteRange,
// Compact and IterOptions take it, else an error wrapping
// ErrInvalidRange: start above end. A nil end is unbounded, and a nil
// start sorts below every key, so a range with a nil end is never
// inverted. Start equal to end is an empty range, not an error: DeleteRange
// and Compact do nothing and an iterator finds nothing. An engine from
// Open checks every range with it before its backend sees one; a
// StandaloneIterator's SetBounds calls it itself.
func CheckRange(start, end []byte) error {
	if end != nil && bytes.Compare(start, end) > 0 {
		return fmt.Errorf("%w: [%.40q, %.40q); swap the bounds", ErrInvalidRange, start, end)
	}
	return nil
}

// emptyRange reports whether [start, end), checked by CheckRange, holds
// no key: start equal to a non-nil end.
func emptyRange(start, end []byte) bool {
	return end != nil && bytes.Equal(start, end)
}
