// Package enginetest is the acceptance suite every backend must pass. A
// backend's test supplies only a Factory:
//
//	func TestEngine(t *testing.T) {
//		enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) {
//			return engine.Open("rocksdb", dir, nil)
//		})
//	}
//
// Run checks the contract in engine: bytewise key order, bounds, forward
// and reverse iteration, snapshots, batches, DeleteRange, slice ownership,
// persistence across Close, Compact giving disk space back, use after
// Close, concurrent readers beside a writer, and clear errors for a
// directory holding another engine's data or one that is not writable.
// Its Differential subtest replays a fixed-seed random sequence of
// operations on the backend and on engine/memory and requires identical
// results, reporting the seed and operation index of the first mismatch.
//
// Keys in the suite are never empty (several engines reject empty keys),
// and are at most a few dozen bytes.
//
// The Compact subtest skips its disk-space check, after checking that
// every live key survived, only when the directory held no file besides
// the ENGINE marker before compacting: an engine that stores nothing on
// disk has nothing to give back. Real backends always store files.
package enginetest
