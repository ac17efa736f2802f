package suite

import "errors"

var (
	// ErrInvalid wraps every mistake in a workload's settings that
	// Flags.Configure and the dataset checks report: the user's, whose
	// message after it names the fix in one line.
	ErrInvalid = errors.New("invalid settings")
	// ErrUnknown is returned by Lookup for a name no workload has.
	ErrUnknown = errors.New("unknown workload")
	// ErrNoRole is returned by Config.Role for a role the workload does
	// not have.
	ErrNoRole = errors.New("no such role")
	// ErrStopped is wrapped by the error of a Run that Engine.Stop ended
	// early (Info.Stops): its result says how far it got, and a stop is
	// no failure of the engine.
	ErrStopped = errors.New("stopped")
	// ErrUnknownReport is returned by ReadReport and ReadSamples for a
	// report of no workload known here.
	ErrUnknownReport = errors.New("not a report of a known workload")
	// ErrNotCompared is returned by ReadSamples for a report of a
	// workload that compare does not read.
	ErrNotCompared = errors.New("not a report compare reads")
	// errCount is matched by every ParseCount error.
	errCount = errors.New("invalid count")
)
