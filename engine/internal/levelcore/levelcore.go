// Package levelcore holds levelcore.h, the C core that the leveldb,
// hyperleveldb and rocksdb backends compile under their library's prefix:
// the bulk iterator cursor that fills package cursor's buffer (with
// bounds that change without a new iterator), the point operations, the
// write of a package cbatch batch and the size estimate of a range. The
// header says how a backend includes it. The Go side reads what the
// libraries report in common (CompactBytes).
//
// The three libraries' C APIs name the same calls under different
// prefixes, so one source serves all three, and each backend keeps only
// what its library does differently.
package levelcore

import _ "embed"

// header is levelcore.h, embedded so that editing it rebuilds the backends
// that include it: cmd/go does not track a header found through -I, but it
// rebuilds a package when one it imports compiles differently. Those
// backends import this package for that reason alone.
//
//go:embed levelcore.h
var header string
