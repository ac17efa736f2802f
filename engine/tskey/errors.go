package tskey

import "errors"

// ErrBadKey is returned by ParseKey for a key that is not KeySize bytes.
var ErrBadKey = errors.New("tskey: bad key")
