package supervise

import (
	"os"
	"path/filepath"
	"strings"
)

// LogDir is where the output of failed children goes: the user's cache
// ($XDG_CACHE_HOME or ~/.cache, benchmark-storage/logs), not the data's
// directory, whose file system may be the one that is full and which a
// run leaves as it found it.
func LogDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "benchmark-storage", "logs")
	}
	return filepath.Join(os.TempDir(), "benchmark-storage-logs")
}

// SaveOutput writes the child's Output to name.log in LogDir, path
// separators in name replaced, and returns the file's path.
func (c *Child) SaveOutput(name string) (string, error) {
	d := LogDir()
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(d, strings.ReplaceAll(name, string(filepath.Separator), "_")+".log")
	return p, os.WriteFile(p, c.Output(), 0o644)
}
