package points

import "errors"

// ErrBadValue is returned by ParseValue for bytes that are not a
// FieldValue holding an int64.
var ErrBadValue = errors.New("points: bad value")
