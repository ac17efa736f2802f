package timeseries

import (
	"errors"

	"github.com/tsbench/storage/workload/suite"
)

var (
	// ErrInvalidConfig is returned by Config.Validate and Run for settings the
	// workload cannot run; the message names the fix.
	ErrInvalidConfig = errors.New("workload: invalid config")
	// ErrVerification is returned by Run when an engine returned a wrong,
	// missing or unexpected point.
	ErrVerification = errors.New("workload: verification failed")
	// ErrStopped is returned by Run when Config.Stop ended it early; the
	// step it was in says how far it got. It is suite.ErrStopped, which
	// the command checks for every workload.
	ErrStopped = suite.ErrStopped
)
