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
// and reverse iteration, snapshots, batches (the rule for a failed
// Commit, Size, Reset), DeleteRange, ranges written backwards refused
// with engine.ErrInvalidRange and empty ones doing nothing, slice
// ownership, the key domain (CommonLimits, and the engine's own Limits:
// keys beyond them refused with the right sentinel), the value and batch
// sizes the engine's Limits advertise (a write one byte or operation over
// them refused with engine.ErrTooLarge before the backend sees it),
// EstimateSize counting a write as soon as it returns unless the Limits
// say EstimateExcludesMemtable, and after a Compact on every engine,
// persistence across Close, Compact giving disk space back and beside
// open iterators, use after Close, a second Close of an engine,
// iterator, batch or snapshot returning nil, concurrent
// readers beside a writer, several writers at once, DeleteRange and
// Compact beside readers, every call after one that failed with
// engine.ErrBroken (inject.Broken makes the backend's next call
// fail so) refused with that error until Close, every committed batch
// whole after the process that wrote them is killed (a second process
// started from the same test binary, with the Factory's options), and
// clear errors for a directory
// holding another engine's data, one that is not writable, one open elsewhere
// (in this process, and in a second process it starts from the same test
// binary) and one whose files are corrupted. The optional interfaces are
// checked twice: through the engine (the backend's own where it has one)
// and through their fallback on an engine that hides it. Its Differential
// subtest replays a fixed-seed random sequence of operations on the
// backend and on engine/memory and requires identical results, reporting
// the seed and operation index of the first mismatch.
//
// Keys in the suite are within engine.CommonLimits, except in the subtests
// that probe the engine's Limits.
//
// The Compact subtest's disk-space check counts the bytes holding data
// (diskusage's Used, not the preallocated space of Actual) above those of
// the freshly opened engine, and allows a quarter of what was written per
// copy of the data the directory holds (engine.Limits.Copies: a local
// etcd cluster's members each keep one). It skips that check, after
// checking that
// every live key survived, only when the directory held no file besides
// the ENGINE marker before compacting: an engine that stores nothing on
// disk has nothing to give back. Real backends always store files.
package enginetest
