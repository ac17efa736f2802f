//go:build !linux

package engine

// memoryBytes is 0, unknown: Options.CacheSize is then not bounded by
// the machine's memory.
func memoryBytes() int64 { return 0 }
