// Package builddir finds what set-up built into a checkout's build/
// folder (the JVM worker, Cassandra's classpath) from a binary or a test
// run anywhere in or beside that checkout.
package builddir

import (
	"os"
	"path/filepath"
)

// Find returns the absolute path of build/rel (rel slash-separated, such
// as "jvm/worker.jar"): beside the directory of this binary
// (bin/benchmark-storage of a checkout), else in the current directory or
// the nearest of its parents that has one; "" if none does.
func Find(rel string) string {
	rel = filepath.Join("build", filepath.FromSlash(rel))
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), "..", rel))
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			candidates = append(candidates, filepath.Join(d, rel))
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			if abs, err := filepath.Abs(c); err == nil {
				return abs
			}
		}
	}
	return ""
}
