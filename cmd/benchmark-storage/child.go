package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload"
)

// runChild runs the workload on the one engine named in s, in the data
// directory its parent created, and writes the *workload.Result as JSON to
// the file the parent named. It returns exitOK, or exitFailed when the
// engine or a verification failed; the result file says why either way,
// unless the process dies first.
func runChild(s *settings, stderr io.Writer) int {
	// Ctrl-C reaches the whole process group; the parent alone decides,
	// and stops the child with SIGTERM, so that it always knows why the
	// child ended.
	signal.Ignore(os.Interrupt)
	name := s.engines[0]
	res, runErr := runWorkload(s, name, newProgress(stderr, s.child.progress, name))
	if res == nil {
		res = &workload.Result{}
	}
	res.Engine = name
	if res.Version == "" {
		res.Version = engine.Version(name)
	}
	if runErr != nil && res.Error == "" {
		res.Error = runErr.Error()
	}
	if err := writeResult(s.child.result, res); err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %s: %v\n", name, err)
		return exitFailed
	}
	if failed(res) {
		return exitFailed
	}
	return exitOK
}

// runWorkload opens the engine, runs the steps and closes it. A failed
// Close fails the run: it may have lost acknowledged writes.
func runWorkload(s *settings, name string, p *progress) (res *workload.Result, err error) {
	opts, err := engineOptions(s, name)
	if err != nil {
		return nil, err
	}
	db, err := engine.Open(name, s.child.dir, &opts)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close: %w", cerr)
		}
	}()
	cfg := workloadConfig(s)
	cfg.Progress, cfg.Log = p, p
	res, err = workload.Run(db, s.child.dir, cfg)
	if res != nil {
		res.Options = opts
	}
	return res, err
}

// engineOptions are the options of one engine: its config (shared keys and
// its own table) or the built-in defaults, with -sync applied on top so
// every engine runs with the same durability.
func engineOptions(s *settings, name string) (engine.Options, error) {
	var opts engine.Options
	if s.config != "" {
		var err error
		if opts, err = engine.LoadConfig(name, s.config); errors.Is(err, fs.ErrNotExist) {
			return opts, inputErrorf("-config %s does not exist: give the path of a TOML file such as configs/%s.toml", s.config, name)
		} else if err != nil {
			return opts, inputErrorf("-config: %w", err)
		}
	}
	if s.sync != "" {
		opts.Sync = s.sync
	}
	return opts.WithDefaults()
}

// workloadConfig is the workload every engine of the run gets.
func workloadConfig(s *settings) workload.Config {
	return workload.Config{
		Points: s.points,
		Series: s.series,
		Batch:  s.batch,
		Seed:   s.seed,
		Settle: s.settle,
	}
}

// writeResult writes res through a temporary file and a rename, so the
// parent never reads half a result from a child that died while writing.
func writeResult(path string, res *workload.Result) error {
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	_, err = tmp.Write(b)
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}

// failed reports whether an engine's run failed or any step's checks did.
func failed(res *workload.Result) bool {
	if res.Error != "" {
		return true
	}
	for _, st := range res.Steps {
		if st.Error != "" {
			return true
		}
	}
	return false
}
