package main

import (
	"errors"
	"fmt"
	"strconv"
)

var (
	// errUsage is returned for bad flags or arguments; the command exits 2.
	errUsage = errors.New("usage")
	// errBadRequest is wrapped by every error a client's request causes:
	// a malformed line, an unsupported field type, a field type conflict,
	// a bad or unknown parameter. The server answers 400.
	errBadRequest = errors.New("bad request")
	// errNotFound is returned by a query of a series the index does not
	// hold, and for an unknown path. The server answers 404.
	errNotFound = errors.New("not found")
	// errMethod is returned for a method a path does not serve. The server
	// answers 405.
	errMethod = errors.New("method not allowed")
	// errTooLarge is returned for a request body above -max-body. The
	// server answers 413, as it does for a write the engine finds too large
	// for one batch (engine.ErrTooLarge).
	errTooLarge = errors.New("request body too large (-max-body)")
	// errRetentionOff is returned by POST /retention when the server runs
	// without -retention. The server answers 409.
	errRetentionOff = errors.New("retention is off (start the server with -retention)")
	// errBadValue is returned for a stored value that does not decode as its
	// series' type.
	errBadValue = errors.New("bad stored value")
	// errBadIndex is returned when the series index in the engine is
	// inconsistent: an entry that does not decode, or an id at or above the
	// next id to allocate.
	errBadIndex = errors.New("bad series index")
)

// quote is s quoted for an error message, cut to its first 100 bytes, so
// that a huge input does not come back as a huge error.
func quote(s string) string {
	const most = 100
	if len(s) <= most {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:most]) + fmt.Sprintf(" (%d bytes more)", len(s)-most)
}
