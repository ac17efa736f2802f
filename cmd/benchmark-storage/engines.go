package main

import "github.com/tsbench/storage/engine/all"

// Every backend this build has is linked in, so that -engine all runs
// them all; enginesMissing are those it lacks (the C engines in a build
// without cgo), which -engine names with the way to get them.
var enginesMissing = all.Missing()
