package dataset

import "errors"

var (
	// ErrMismatch is returned by Open for a dataset written with other
	// parameters; the message names each and the fix.
	ErrMismatch = errors.New("dataset: parameters differ")
	// ErrIncomplete is returned by Open for a directory that holds files
	// but no manifest: not a dataset, or one whose writing was
	// interrupted.
	ErrIncomplete = errors.New("dataset: no manifest")
)
