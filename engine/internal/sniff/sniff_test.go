package sniff

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSniff(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("data", "head:MAGIC")
	write("OPTIONS-000007", "[Version]\n  pebble_version=0.1\n")
	for _, c := range []struct {
		name string
		got  func() (bool, error)
		want bool
	}{
		{"Files present", func() (bool, error) { return Files(dir, "data", "OPTIONS-000007") }, true},
		{"Files one missing", func() (bool, error) { return Files(dir, "data", "MANIFEST") }, false},
		{"Magic at its offset", func() (bool, error) { return Magic(filepath.Join(dir, "data"), 5, []byte("MAGIC")) }, true},
		{"Magic elsewhere", func() (bool, error) { return Magic(filepath.Join(dir, "data"), 0, []byte("MAGIC")) }, false},
		{"Magic past the end", func() (bool, error) { return Magic(filepath.Join(dir, "data"), 8, []byte("MAGIC")) }, false},
		{"Magic of a missing file", func() (bool, error) { return Magic(filepath.Join(dir, "none"), 0, []byte("M")) }, false},
		{"Options with the key", func() (bool, error) { return Options(dir, "pebble_version=") }, true},
		{"Options without it", func() (bool, error) { return Options(dir, "rocksdb_version=") }, false},
	} {
		if got, err := c.got(); got != c.want || err != nil {
			t.Errorf("%s = %v, %v; want %v, nil", c.name, got, err, c.want)
		}
	}
	if _, err := Options(filepath.Join(dir, "none"), "x"); err == nil {
		t.Error("Options of a missing directory: no error")
	}
}
