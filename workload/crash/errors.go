package crash

import "errors"

// ErrInvalidConfig is wrapped by Config.Validate's errors.
var ErrInvalidConfig = errors.New("crash: invalid config")
