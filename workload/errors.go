package workload

import "errors"

var (
	// ErrInvalidConfig is returned by Config.Validate and Run for settings the
	// workload cannot run; the message names the fix.
	ErrInvalidConfig = errors.New("workload: invalid config")
	// ErrBadKey is returned by ParseKey for a key that is not KeySize bytes.
	ErrBadKey = errors.New("workload: bad key")
	// ErrBadValue is returned by ParseValue for bytes that are not a
	// FieldValue holding an int64.
	ErrBadValue = errors.New("workload: bad value")
	// ErrVerification is returned by Run when an engine returned a wrong,
	// missing or unexpected point.
	ErrVerification = errors.New("workload: verification failed")
)
