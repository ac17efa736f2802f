package mixed

import "errors"

var (
	// ErrInvalidConfig is returned by Config.Validate, ParseSkew and Run
	// for settings the workload cannot run; the message names the fix.
	ErrInvalidConfig = errors.New("mixed: invalid config")
	// ErrVerification is returned by Run when a read returned a wrong
	// point or missed one that writers had acknowledged.
	ErrVerification = errors.New("mixed: verification failed")
)
