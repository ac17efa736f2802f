package querymix

import "errors"

// ErrInvalid is wrapped by the errors of ParseMix and Mix.Validate, which
// say what to change.
var ErrInvalid = errors.New("invalid query mix")
