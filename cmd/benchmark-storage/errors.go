package main

import (
	"errors"
	"fmt"
)

// Exit statuses.
const (
	exitOK          = 0
	exitFailed      = 1   // an engine failed or a verification failed
	exitBadInput    = 2   // the command line or config is wrong; nothing ran
	exitInterrupted = 130 // Ctrl-C or SIGTERM, as shells report SIGINT
)

// inputError is a mistake in the command line or the config file. Its
// message is one line naming the problem and the fix; it exits with
// exitBadInput before anything is created.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

func inputErrorf(format string, args ...any) error {
	return &inputError{fmt.Errorf(format, args...)}
}

// isInputError reports whether err is the user's mistake.
func isInputError(err error) bool {
	var ie *inputError
	return errors.As(err, &ie)
}
