package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
)

const (
	manifestFile = "manifest.json"
	dataDir      = "data"
)

// Dataset is a dataset directory and the manifest it holds or will hold.
type Dataset struct {
	dir    string
	want   Manifest
	exists bool
}

// Open looks in dir for the dataset want describes, reading only. A
// missing or empty dir is a dataset still to be written (Exists false);
// one whose manifest matches want exists. A manifest that differs is an
// error wrapping ErrMismatch that names every differing parameter; files
// without a manifest are ErrIncomplete.
func Open(dir string, want Manifest) (*Dataset, error) {
	want.Format = format
	d := &Dataset{dir: dir, want: want}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return d, nil
	case err != nil:
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	case len(entries) == 0:
		return d, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s holds files but no %s: not a dataset, or its writing was interrupted; remove it or give another -dataset", ErrIncomplete, dir, manifestFile)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	var have Manifest
	if err := json.Unmarshal(b, &have); err != nil {
		return nil, fmt.Errorf("%w: %s: unreadable manifest (%v); remove the dataset or give another -dataset", ErrMismatch, dir, err)
	}
	if diff := want.diff(have); len(diff) > 0 {
		return nil, fmt.Errorf("%w: %s was written with other parameters: %s; run with the dataset's parameters, or give another -dataset directory", ErrMismatch, dir, strings.Join(diff, ", "))
	}
	d.want.Created = have.Created
	d.exists = true
	return d, nil
}

// Exists reports whether the dataset was written, with the parameters
// Open was given.
func (d *Dataset) Exists() bool { return d.exists }

// Dir is the dataset's directory.
func (d *Dataset) Dir() string { return d.dir }

// Save keeps a consistent copy of db, which holds exactly the points of
// the manifest, in the dataset: engine.Checkpoint (the engine's native
// checkpoint, or a logical copy into a new store) into data/, then the
// manifest. opts are the options db was opened with: the copy is opened
// with them once more and flushed (engine.Flusher), so that writes a
// copy left in a log reach table files, which a clone shares by hard
// links and opens without replaying a log. Save fails if the dataset
// exists; it returns what it did.
func (d *Dataset) Save(db engine.Engine, opts *engine.Options) (Use, error) {
	start := time.Now()
	if err := d.save(db, opts); err != nil {
		return Use{}, err
	}
	return Use{Path: d.abs(), Created: d.want.Created, Save: time.Since(start)}, nil
}

func (d *Dataset) save(db engine.Engine, opts *engine.Options) error {
	if d.exists {
		return fmt.Errorf("dataset %s: already written", d.dir)
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	data := filepath.Join(d.dir, dataDir)
	if err := engine.Checkpoint(db, data); err != nil {
		return fmt.Errorf("dataset %s: %w", d.dir, err)
	}
	if err := flush(d.want.Engine, data, opts); err != nil {
		return fmt.Errorf("dataset %s: %w", d.dir, err)
	}
	m := d.want
	m.Created = time.Now().UTC()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	tmp := filepath.Join(d.dir, manifestFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(d.dir, manifestFile)); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	d.want, d.exists = m, true
	return nil
}

// abs is the dataset's directory as an absolute path, for results.
func (d *Dataset) abs() string {
	if abs, err := filepath.Abs(d.dir); err == nil {
		return abs
	}
	return d.dir
}

// flush opens the store in dir and flushes what it buffers, if it can.
func flush(name, dir string, opts *engine.Options) error {
	db, err := engine.Open(name, dir, opts)
	if err != nil {
		return err
	}
	if f, ok := db.(engine.Flusher); ok {
		err = f.Flush()
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// Use says what a run did with its dataset: reused it (started from a
// clone rather than writing the points) or wrote and saved it.
type Use struct {
	// Path is the dataset's directory.
	Path string `json:"path"`
	// Created is when it was written.
	Created time.Time `json:"created"`
	// Reused is true when the run started from the dataset, false when
	// it saved it.
	Reused bool `json:"reused"`
	// Method is how a reused dataset's files came into the run's
	// directory: "hard links" for the engine's immutable files and copies
	// of the rest, or "copy". Empty when saved.
	Method string `json:"method,omitempty"`
	// Clone is how long cloning a reused dataset took.
	Clone time.Duration `json:"clone_ns,omitempty"`
	// Save is how long saving took (a checkpoint, reopening it to flush,
	// the manifest), outside the measured steps.
	Save time.Duration `json:"save_ns,omitempty"`
}

// Note is the sentence a report adds for engine's run when it reused the
// dataset instead of what skipped says ("write step not run"): where the
// data came from and how it was cloned; "" if u is nil or saved.
func (u *Use) Note(engine, skipped string) string {
	if u == nil || !u.Reused {
		return ""
	}
	return fmt.Sprintf("\n%s: %s: reused the dataset %s (written %s), cloned by %s in %s.",
		engine, skipped, u.Path, u.Created.UTC().Format("2006-01-02 15:04"), u.Method, report.Duration(u.Clone))
}

// immutable lists, per engine, the suffixes of the files it never
// changes once written (LSM tables and blob files), which a clone can
// share by hard links; every other file is copied, since the run will
// write to it.
var immutable = map[string][]string{
	"rocksdb":      {".sst", ".blob"},
	"pebble":       {".sst", ".blob"},
	"leveldb":      {".ldb", ".sst"},
	"hyperleveldb": {".ldb", ".sst"},
	"goleveldb":    {".ldb", ".sst"},
	"badger":       {".sst"},
}

// Clone fills dst, which must not exist, with the dataset's store, for a
// run to open with the dataset's engine: hard links of the files the
// engine never changes (falling back to copies across file systems),
// copies of the others, so that the dataset stays as it was.
func (d *Dataset) Clone(dst string) (Use, error) {
	r := Use{Path: d.abs(), Created: d.want.Created, Reused: true, Method: "copy"}
	if !d.exists {
		return r, fmt.Errorf("dataset %s: not written yet", d.dir)
	}
	start := time.Now()
	linked := false
	src := filepath.Join(d.dir, dataDir)
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		switch {
		case e.IsDir():
			return os.Mkdir(to, 0o755)
		case !e.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file", path)
		case d.shareable(e.Name()):
			err := os.Link(path, to)
			if err == nil {
				linked = true
				return nil
			}
			if !errors.Is(err, syscall.EXDEV) && !errors.Is(err, syscall.EPERM) {
				return err
			}
		}
		return copyFile(path, to)
	})
	r.Clone = time.Since(start)
	if err != nil {
		os.RemoveAll(dst)
		return r, fmt.Errorf("dataset %s: clone into %s: %w", d.dir, dst, err)
	}
	if linked {
		r.Method = "hard links"
	}
	return r, nil
}

func (d *Dataset) shareable(name string) bool {
	for _, suffix := range immutable[d.want.Engine] {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// copyFile copies a regular file, syncing nothing: the clone is a
// scratch copy for one run.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
