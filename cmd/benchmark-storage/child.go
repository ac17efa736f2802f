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
)

// runChild runs the suite on the one engine named in s, in the data
// directory its parent created, and writes the result as JSON to the file
// the parent named. It returns exitOK, or exitFailed when the engine or a
// verification failed; the result file says why either way, unless the
// process dies first.
func runChild[R any](su suite[R], s *settings, stderr io.Writer) int {
	// Ctrl-C reaches the whole process group; the parent alone decides,
	// and stops the child with SIGTERM, so that it always knows why the
	// child ended.
	signal.Ignore(os.Interrupt)
	name := s.engines[0]
	var res *R
	opts, err := engineOptions(s, name)
	if err == nil {
		res, err = su.run(s, name, opts, newProgress(stderr, s.child.progress, name))
	}
	if res == nil {
		res = new(R)
	}
	su.label(res, name, err)
	if err := writeResult(s.child.result, res); err != nil {
		fmt.Fprintf(stderr, "benchmark-storage: %s: %v\n", name, err)
		return exitFailed
	}
	if su.failure(res) != "" {
		return exitFailed
	}
	return exitOK
}

// engineOptions are the options of one engine: its config (shared keys and
// its own table) or the built-in defaults, with -sync, -cache-size and
// -compression applied on top so every engine runs with the same.
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
	s.engineFlags.apply(&opts)
	return opts.WithDefaults()
}

// writeResult writes res through a temporary file and a rename, so the
// parent never reads half a result from a child that died while writing.
func writeResult(path string, res any) error {
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
