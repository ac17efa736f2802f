package workload

import "errors"

var (
	// ErrInvalidConfig is returned by Config.Validate and Run for settings the
	// workload cannot run; the message names the fix.
	ErrInvalidConfig = errors.New("workload: invalid config")
	// ErrVerification is returned by Run when an engine returned a wrong,
	// missing or unexpected point.
	ErrVerification = errors.New("workload: verification failed")
)
