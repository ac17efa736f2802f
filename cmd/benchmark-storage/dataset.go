package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/dataset"
)

// datasetDir is where -dataset keeps one engine's dataset: a
// subdirectory per engine, so that one -dataset serves a run of several.
func datasetDir(s *settings, name string) string { return filepath.Join(s.dataset, name) }

// manifestFor is every parameter that determines the dataset of engine
// name: what the time-series write step and the mixed preload write.
func manifestFor(s *settings, name string, opts engine.Options) (dataset.Manifest, error) {
	eff, err := engine.Effective(name, opts)
	if err != nil {
		return dataset.Manifest{}, fmt.Errorf("record options: %w", err)
	}
	return dataset.Manifest{
		Engine: name, Version: engine.Version(name),
		Points: s.points, Series: s.series, Batch: s.batch, Seed: s.seed,
		Options: eff,
	}, nil
}

// openDataset opens the dataset of engine name, reading only. A dataset
// of other parameters, or a partial one, is the user's mistake.
func openDataset(s *settings, name string, opts engine.Options) (*dataset.Dataset, error) {
	want, err := manifestFor(s, name, opts)
	if err != nil {
		return nil, err
	}
	dir := datasetDir(s, name)
	ds, err := dataset.Open(dir, want)
	switch {
	case errors.Is(err, dataset.ErrMismatch):
		return nil, inputErrorf("-dataset %s: %v", s.dataset, err)
	case errors.Is(err, dataset.ErrIncomplete):
		return nil, inputErrorf("-dataset %s: %s holds files but no manifest (an interrupted save, or not a dataset): remove %s or choose another -dataset", s.dataset, dir, dir)
	case err != nil:
		return nil, inputErrorf("-dataset %s: %v: choose a directory you can read and write", s.dataset, err)
	}
	return ds, nil
}

// checkDatasets opens the dataset of every engine before anything is
// created, so that a mismatch costs nothing.
func checkDatasets(s *settings) error {
	if s.dataset == "" {
		return nil
	}
	if fi, err := os.Stat(s.dataset); err == nil && !fi.IsDir() {
		return inputErrorf("-dataset %s is a file: give a directory, new or one an earlier run wrote", s.dataset)
	}
	for _, name := range s.engines {
		opts, err := engineOptions(s, name)
		if err != nil {
			return err
		}
		if _, err := openDataset(s, name, opts); err != nil {
			return err
		}
	}
	return nil
}

// prepareDataset is what a child does with -dataset before it opens the
// engine: with a saved dataset, it clones it into its data directory
// (which the parent created empty) and returns the reuse; otherwise it
// returns the dataset to save once the points are written. Without
// -dataset both are nil.
func prepareDataset(s *settings, name string, opts engine.Options) (*dataset.Dataset, *dataset.Use, error) {
	if s.dataset == "" {
		return nil, nil, nil
	}
	ds, err := openDataset(s, name, opts)
	if err != nil {
		return nil, nil, err
	}
	if !ds.Exists() {
		return ds, nil, nil
	}
	// Clone fills a directory that does not exist yet.
	if err := os.Remove(s.child.dir); err != nil {
		return nil, nil, fmt.Errorf("clone the dataset: %w", err)
	}
	r, err := ds.Clone(s.child.dir)
	if err != nil {
		return nil, nil, fmt.Errorf("clone the dataset %s: %w", ds.Dir(), err)
	}
	return nil, &r, nil
}

// saveDataset returns the hook that saves db into ds once its points are
// written, outside the measured steps, and records what it did in *use;
// it says how long saving took.
func saveDataset(ds *dataset.Dataset, db engine.Engine, opts *engine.Options, p *progress, use **dataset.Use) func() error {
	return func() error {
		u, err := ds.Save(db, opts)
		if err != nil {
			return fmt.Errorf("save the dataset %s: %w", ds.Dir(), err)
		}
		*use = &u
		fmt.Fprintf(p, "saved the dataset %s in %s", ds.Dir(), roundDuration(u.Save))
		return nil
	}
}

// closeEngine closes db when a suite's run returns, failing the run if
// Close fails (it may have lost acknowledged writes). After a panic it
// does not close: the engine may hold its own locks, so that Close could
// wait forever; the caller reports the panic.
func closeEngine(db engine.Engine, err *error) {
	if r := recover(); r != nil {
		panic(r)
	}
	if cerr := db.Close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("close: %w", cerr)
	}
}
