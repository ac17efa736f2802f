package points

import "errors"

// ErrBadValue is returned by ParseValue for bytes that are not a
// FieldValue holding an int64.
var ErrBadValue = errors.New("points: bad value")

// ErrBadValues is returned for values that cannot be made: an unknown
// kind or encoding, or a real seed that is missing or unreadable.
var ErrBadValues = errors.New("points: bad values")
