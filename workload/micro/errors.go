package micro

import "errors"

var (
	// ErrInvalidConfig is returned by Config.Validate, ParseBenchmarks,
	// ParseKeyType, ParseOrder, NewSession and Run for settings the
	// benchmarks cannot run with; the message names the fix.
	ErrInvalidConfig = errors.New("micro: invalid config")
	// ErrVerification is returned when an engine read back a wrong,
	// missing or unexpected entry, or a checksum that does not match.
	ErrVerification = errors.New("micro: verification failed")
	// ErrUnverifiable is returned by Session.Run for a read after a
	// partial overwrite or delete (fewer operations than entries), whose
	// expected contents the session does not track; call Session.Prepare
	// first.
	ErrUnverifiable = errors.New("micro: store contents unknown after a partial overwrite or delete")
)
