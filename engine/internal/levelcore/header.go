package levelcore

import _ "embed"

// The C headers, embedded so that editing them rebuilds the backends that
// include them: cmd/go does not track a header found through -I, but it
// rebuilds a package when one it imports compiles differently. Those
// backends import this package for its DB anyway.
var (
	//go:embed levelcore.h
	header string
	//go:embed library.h
	libraryHeader string
)
