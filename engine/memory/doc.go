// Package memory is an in-memory engine.Engine: the reference the shared
// acceptance suite (engine/enginetest) compares every backend against, and
// a stand-in that TSDB authors can use in their own tests.
//
//	db := memory.New()
//	defer db.Close()
//
// It keeps entries in one slice sorted by bytes.Compare. An iterator or a
// snapshot (engine.Snapshotter) takes that slice as its view; the next
// write copies the slice instead of changing it in place, so the view never
// moves under it. DeleteRange and iterator reuse (engine.BoundsSetter) are
// native, batches report their size and Reset, Compact does nothing, and it keeps
// the contract on its own, without engine.Open: use after Close returns
// engine.ErrClosed, and Close fails while iterators or snapshots are open.
// It stores any key, the empty one included.
//
// It is deliberately not registered with engine.Register: nothing persists
// across Close, so it cannot honour the contract of an engine opened by
// directory. Writes cost O(n) in the number of entries, which suits tests,
// not the 100M-point benchmark. It has no options; the shared
// engine.Options (sync, caches, buffers, compression, bloom filters) have
// no meaning for it.
package memory
