// Package dataset keeps the data a workload's first step writes, so that
// later runs start from the next step instead of writing it again: at
// 100M points the write step alone takes minutes.
//
// A dataset is a directory holding a consistent copy of one engine's
// store (data/) and a manifest (manifest.json) of every parameter that
// determines it: the engine and its version, the points, series, batch
// size and seed, and the engine's options except those that change only
// how the store is read or synced (cache_size, max_open_files, sync), so
// that one dataset serves a sweep of them. The time-series workload's
// write step and the mixed workload's preload write the same points, so
// one dataset serves both.
//
//	ds, err := dataset.Open(dir, want) // reads only; ErrMismatch if dir holds other data
//	if ds.Exists() {
//		reuse, err := ds.Clone(runDir) // then open the engine in runDir and skip the write
//	} else {
//		// run the write step, then
//		err = ds.Save(db, opts)
//	}
//
// Open never creates or deletes anything, so that a mistake in the
// parameters costs nothing. Save writes the manifest last: a dataset
// whose writing was interrupted has none, and Open refuses it rather
// than reuse a partial copy.
package dataset
