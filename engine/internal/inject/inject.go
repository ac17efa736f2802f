// Package inject lets the engine layer's tests make a backend fail on
// demand, which no real backend does: package engine sets Broken, and
// engine/enginetest and the engine package's own tests call it. It is
// internal so that the hook stays out of the engine layer's API.
package inject

// Broken makes the next call that e, an engine from engine.Open, makes
// into its backend return err instead, as if the backend had failed with
// it: Get, Put, Delete, DeleteRange, NewIterator, Compact, Flush or Busy,
// or the fallback of an optional interface, which calls one of them. err
// must wrap engine.ErrBroken, so that e then refuses every later call but
// Close with err, as it does after a backend's own failure; the backend
// itself is left as it was, and Close closes it. Batches, iterators and
// snapshots made before keep the backend's own. It fails with
// engine.ErrNotSupported for an engine that did not come from Open, and
// with engine.ErrClosed after Close; it panics if err does not wrap
// engine.ErrBroken, a mistake of the test.
var Broken func(e any, err error) error
