package powercut

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWrite writes sequentially in blocks of a size, fsyncing every
// MiB, to a 64 MiB file it then writes over again: on a powercut mount
// and directly in a directory of the same file system, as the mount's
// backing directory is.
func BenchmarkWrite(b *testing.B) {
	const syncEvery, fileSize = 1 << 20, 64 << 20
	dirs := []struct {
		name string
		dir  func(b *testing.B) string
	}{
		{"powercut", func(b *testing.B) string { return newStore(b, Options{}).mnt }},
		{"backing", func(b *testing.B) string { return b.TempDir() }},
	}
	for _, d := range dirs {
		for _, size := range []int{4 << 10, 64 << 10, 1 << 20} {
			b.Run(fmt.Sprintf("fs=%s/size=%dKiB", d.name, size>>10), func(b *testing.B) {
				f, err := os.Create(filepath.Join(d.dir(b), "f"))
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				buf := pattern(size, 1)
				b.SetBytes(int64(size))
				var off int64
				for b.Loop() {
					if _, err := f.WriteAt(buf, off); err != nil {
						b.Fatal(err)
					}
					off += int64(size)
					if off%syncEvery == 0 {
						if err := f.Sync(); err != nil {
							b.Fatal(err)
						}
					}
					if off == fileSize {
						off = 0
					}
				}
			})
		}
	}
}
