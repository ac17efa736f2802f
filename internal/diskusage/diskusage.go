// Package diskusage measures what a directory occupies on disk, three ways:
// the bytes that hold data (Used), the allocated blocks (Actual, what du
// and df see) and the file lengths (Apparent, what ls sees).
//
// They differ because engines preallocate: Pebble and RocksDB fallocate
// each write-ahead log ahead of the writes without changing its length,
// so unwritten log space is allocated but lies past the end of the file,
// while LMDB and bbolt size their file to the whole map, leaving holes that
// are part of the length but not allocated. Used leaves out both.
package diskusage

import (
	"errors"
	"io/fs"
	"path/filepath"
	"syscall"
)

// Usage is a directory's footprint, summed over its regular files.
type Usage struct {
	// Used is, per file, its allocated bytes capped at its length: space
	// preallocated past the end of a file and holes in a sparse file do
	// not count, data does (a partly filled last block counts its bytes,
	// not the whole block). Two cases still count space holding no data:
	// a file with both holes and space past its end, where that space can
	// stand in for the holes, and space preallocated inside the length,
	// which only the file system's extent map tells apart from data.
	Used int64 `json:"used_bytes"`
	// Actual is the bytes of allocated blocks, as du reports by default;
	// preallocated space counts, holes do not.
	Actual int64 `json:"actual_bytes"`
	// Apparent is the sum of file lengths, as du --apparent-size reports;
	// holes count, space preallocated past the end does not.
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
			if path != dir && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		size, alloc := info.Size(), info.Size()
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			alloc = st.Blocks * 512 // st_blocks counts 512-byte units on every Unix
		}
		u.Files++
		u.Apparent += size
		u.Actual += alloc
		u.Used += min(alloc, size)
		return nil
	})
	return u, err
}
