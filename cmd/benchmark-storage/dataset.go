package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
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

// datasetRun is an engine opened for a workload whose first points make
// a dataset (the time-series write step, the mixed preload).
type datasetRun struct {
	db engine.Engine
	// use is what the run did with -dataset: set when it starts from a
	// clone, or once save has saved the points; nil without -dataset.
	use *dataset.Use
	// save, unless nil, saves the dataset once the points are written:
	// the workload's hook, outside its measured steps.
	save func() error
}

// openRun opens engine name in the child's directory: with a saved
// dataset in a clone of it (the parent created the directory empty;
// Clone fills one that does not exist yet), otherwise empty, with save
// set when -dataset names one to write. The caller closes db with
// closeEngine.
func openRun(s *settings, name string, opts *engine.Options, p *progress) (*datasetRun, error) {
	var ds *dataset.Dataset
	r := &datasetRun{}
	if s.dataset != "" {
		var err error
		if ds, err = openDataset(s, name, *opts); err != nil {
			return nil, err
		}
		if ds.Exists() {
			if err := os.Remove(s.child.dir); err != nil {
				return nil, fmt.Errorf("clone the dataset: %w", err)
			}
			u, err := ds.Clone(s.child.dir)
			if err != nil {
				return nil, fmt.Errorf("clone the dataset %s: %w", ds.Dir(), err)
			}
			r.use, ds = &u, nil
		}
	}
	db, err := engine.Open(name, s.child.dir, opts)
	if err != nil {
		return nil, err
	}
	r.db = db
	if ds != nil {
		r.save = func() error {
			u, err := ds.Save(db, opts)
			if err != nil {
				return fmt.Errorf("save the dataset %s: %w", ds.Dir(), err)
			}
			r.use = &u
			fmt.Fprintf(p, "saved the dataset %s in %s", ds.Dir(), roundDuration(u.Save))
			return nil
		}
	}
	return r, nil
}

// runOnDataset opens engine name for a workload whose first points make
// a dataset (openRun), runs run on it and closes it, and records in the
// result what it did with -dataset and the engine it ran (recordEngine).
// A failed Close fails the run: it may have lost acknowledged writes.
func runOnDataset[R any](su suite[R], s *settings, name string, opts engine.Options, p *progress, run func(r *datasetRun) (*R, error)) (res *R, err error) {
	r, err := openRun(s, name, &opts, p)
	if err != nil {
		return nil, err
	}
	defer closeEngine(r.db, &err)
	res, err = run(r)
	if res != nil {
		f := su.fields(res)
		*f.dataset = r.use
		err = recordEngine(f.header, r.db, name, opts, err)
	}
	return res, err
}

// recordEngine fills in what a result says beyond the workload's figures:
// the options in effect and which instance of the engine db ran, where
// its backend tells; it returns err, or the error of recording the
// options.
func recordEngine(h *harness.Header, db engine.Engine, name string, opts engine.Options, err error) error {
	h.Options, err = effective(name, opts, err)
	if d, ok := engine.BackendAs[engine.Describer](db); ok {
		h.Description = d.Describe()
	}
	return err
}

// reusedNote is the line the parent prints for a run that started from a
// dataset.
func reusedNote(r *dataset.Use) string {
	if r == nil || !r.Reused {
		return ""
	}
	return fmt.Sprintf("reused the dataset %s (written %s), cloned by %s in %s", r.Path, r.Created.Format(time.DateTime), r.Method, roundDuration(r.Clone))
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
