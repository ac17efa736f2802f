package suite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
)

// Manifest is every parameter that determines the dataset of engine
// name, whose options engine.Effective spelled as effective: what the
// time-series write step and the mixed preload write.
func Manifest(sizes dataset.Sizes, name string, effective map[string]any) dataset.Manifest {
	return dataset.Manifest{Engine: name, Version: engine.Version(name), Sizes: sizes, Options: effective}
}

// OpenDataset opens the dataset of engine name in root, the -dataset
// directory, a subdirectory per engine so that one -dataset serves a
// run of several, reading only. A dataset of other parameters, or a
// partial one, is the user's mistake, wrapping ErrInvalid.
func OpenDataset(root string, sizes dataset.Sizes, name string, effective map[string]any) (*dataset.Dataset, error) {
	want := Manifest(sizes, name, effective)
	dir := filepath.Join(root, name)
	ds, err := dataset.Open(dir, want)
	switch {
	case errors.Is(err, dataset.ErrMismatch):
		return nil, Invalidf("-dataset %s: %v", root, err)
	case errors.Is(err, dataset.ErrIncomplete):
		return nil, Invalidf("-dataset %s: %s holds files but no manifest (an interrupted save, or not a dataset): remove %s or choose another -dataset", root, dir, dir)
	case err != nil:
		return nil, Invalidf("-dataset %s: %v: choose a directory you can read and write", root, err)
	}
	return ds, nil
}

// DatasetRun is an engine opened for a workload whose first points make
// a dataset (the time-series write step, the mixed preload).
type DatasetRun struct {
	DB engine.Engine
	// Use is what the run did with -dataset: set when it starts from a
	// clone, or once Save has saved the points; nil without -dataset.
	Use *dataset.Use
	// Save, unless nil, saves the dataset once the points are written:
	// the workload's hook, outside its measured steps.
	Save func() error
}

// openRun opens e in its directory: with a saved dataset in a clone of
// it (the parent created the directory empty; Clone fills one that does
// not exist yet), otherwise empty, with Save set when -dataset names one
// to write. The caller closes DB with Close.
func openRun(e *Engine, sizes dataset.Sizes) (*DatasetRun, error) {
	var ds *dataset.Dataset
	r := &DatasetRun{}
	if e.Dataset != "" {
		var err error
		if ds, err = OpenDataset(e.Dataset, sizes, e.Name, e.Effective); err != nil {
			return nil, err
		}
		if ds.Exists() {
			if err := os.Remove(e.Dir); err != nil {
				return nil, fmt.Errorf("clone the dataset: %w", err)
			}
			u, err := ds.Clone(e.Dir)
			if err != nil {
				return nil, fmt.Errorf("clone the dataset %s: %w", ds.Dir(), err)
			}
			r.Use, ds = &u, nil
		}
	}
	db, err := e.Open(e.Dir)
	if err != nil {
		return nil, err
	}
	r.DB = db
	if ds != nil {
		r.Save = func() error {
			u, err := ds.Save(db, &e.Options)
			if err != nil {
				return fmt.Errorf("save the dataset %s: %w", ds.Dir(), err)
			}
			r.Use = &u
			fmt.Fprintf(e.Progress, "saved the dataset %s in %s", ds.Dir(), harness.Round(u.Save))
			return nil
		}
	}
	return r, nil
}

// RunOnDataset opens e for a workload whose first points, of sizes, make
// a dataset (with -dataset, from a clone of one saved, or saving one), runs run on
// it and closes it, and records in the result what it did with -dataset
// and the engine it ran (Engine.Record). A failed Close fails the run:
// it may have lost acknowledged writes.
func RunOnDataset[R any](e *Engine, sizes dataset.Sizes, fields func(*R) Fields, run func(r *DatasetRun) (*R, error)) (res *R, err error) {
	r, err := openRun(e, sizes)
	if err != nil {
		return nil, err
	}
	defer Close(r.DB, &err)
	res, err = run(r)
	if res != nil {
		f := fields(res)
		*f.Dataset = r.Use
		err = e.Record(f.Header, r.DB, err)
	}
	return res, err
}
