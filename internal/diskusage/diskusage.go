// Package diskusage measures what a directory occupies on disk, exactly:
// both allocated blocks (what df sees) and apparent bytes (what ls sees).
package diskusage

import (
	"errors"
	"io/fs"
	"path/filepath"
	"syscall"
)

// Usage is a directory's footprint.
type Usage struct {
	// Actual is the bytes of allocated blocks, as du reports by default.
	Actual int64 `json:"actual_bytes"`
	// Apparent is the sum of file sizes, as du --apparent-size reports;
	// sparse files such as LMDB's map make it larger than Actual.
	Apparent int64 `json:"apparent_bytes"`
	// Files counts regular files.
	Files int `json:"files"`
}

// Measure walks dir. Files that vanish during the walk (an engine deleting
// obsolete tables) are skipped, not errors.
func Measure(dir string) (Usage, error) {
	var u Usage
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path != dir && errorsIsNotExist(err) {
				return nil
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			if errorsIsNotExist(err) {
				return nil
			}
			return err
		}
		u.Files++
		u.Apparent += info.Size()
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			u.Actual += st.Blocks * 512
		} else {
			u.Actual += info.Size()
		}
		return nil
	})
	return u, err
}

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
