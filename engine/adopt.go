package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// adopt decides whether Open may use dir when it has no ENGINE marker. An
// empty directory is new. One holding files is this engine's only if the
// driver recognises them as its store (Driver.Recognize), such as one
// written by the library itself without Open. Anything else is refused
// before anything in dir is created or deleted: a backend opening a
// foreign store would create its own beside it, delete the files it does
// not know, or crash on them.
func adopt(d Driver, name, dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, markerFile)); err == nil {
		return nil // claim checks whose it is
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if d.Recognize != nil {
		ok, err := d.Recognize(dir)
		if err != nil {
			return fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("%w: %s holds %d files (%s, ...) but no %s marker, and %s does not recognise them as its own store: "+
		"choose an empty directory, or, if they are a %s store, write %q into %s",
		ErrWrongEngine, dir, len(entries), entries[0].Name(), markerFile, name, name, name, filepath.Join(dir, markerFile))
}
