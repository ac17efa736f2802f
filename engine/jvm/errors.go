package jvm

import "errors"

// ErrWorker is returned by a JVM engine's Process when the worker cannot
// run: not built, built from older source, or no java on PATH. The
// message names the fix.
var ErrWorker = errors.New("jvm: the JVM worker cannot run")
