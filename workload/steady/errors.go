package steady

import "errors"

var (
	// ErrInvalidConfig is returned by Config.Validate, ParseMethod and
	// Run for settings the workload cannot run; the message names the
	// fix.
	ErrInvalidConfig = errors.New("steady: invalid config")
	// ErrVerification is returned by Run when a query or the final check
	// read a wrong point, an expired one, or missed one the model says is
	// there.
	ErrVerification = errors.New("steady: verification failed")
)
