package engine

import "errors"

var (
	// ErrNotFound is returned by Get when the key is absent.
	ErrNotFound = errors.New("engine: key not found")
	// ErrClosed is returned by any call on an engine, batch or iterator
	// after it (or the engine it came from) was closed.
	ErrClosed = errors.New("engine: closed")
	// ErrOpenIterators is returned by Close while iterators are still open;
	// the engine stays open so they can be closed first.
	ErrOpenIterators = errors.New("engine: iterators still open; close them before the engine")
	// ErrUnknownEngine is returned by Open and LoadConfig for a name no
	// backend registered; the message lists the registered names.
	ErrUnknownEngine = errors.New("engine: unknown engine")
	// ErrWrongEngine is returned by Open when the directory holds another
	// engine's data.
	ErrWrongEngine = errors.New("engine: directory holds another engine's data")
	// ErrInvalidOptions is returned for options an engine cannot use.
	ErrInvalidOptions = errors.New("engine: invalid options")
	// ErrConfig is returned by LoadConfig for a malformed file or unknown key.
	ErrConfig = errors.New("engine: bad config")
)
