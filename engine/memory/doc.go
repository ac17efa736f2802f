// Package memory is an in-memory engine.Engine: the reference the shared
// acceptance suite (engine/enginetest) compares every backend against, and
// a stand-in that TSDB authors can use in their own tests.
//
//	db := memory.New()
//	defer db.Close()
//
// It keeps entries in one slice sorted by bytes.Compare. An iterator takes
// that slice as its snapshot; the next write copies the slice instead of
// changing it in place, so the snapshot never moves under the iterator.
// DeleteRange is native, Compact does nothing, and use after Close returns
// engine.ErrClosed like every backend.
//
// It is deliberately not registered with engine.Register: nothing persists
// across Close, so it cannot honour the contract of an engine opened by
// directory. Writes cost O(n) in the number of entries, which suits tests,
// not the 100M-point benchmark. It has no options; the shared
// engine.Options (sync, caches, buffers, compression, bloom filters) have
// no meaning for it.
package memory
