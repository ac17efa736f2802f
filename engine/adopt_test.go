package engine_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// testadopt is a driver that recognises a directory holding "MINE".
func init() {
	engine.Register("testadopt", engine.Driver{
		Open: func(string, engine.Options) (engine.Backend, error) { return memory.New(), nil },
		Recognize: func(dir string) (bool, error) {
			_, err := os.Stat(filepath.Join(dir, "MINE"))
			return err == nil, nil
		},
	})
}

// TestOpenForeignDirectory checks that Open leaves a non-empty directory
// without a marker untouched unless the driver recognises its files.
func TestOpenForeignDirectory(t *testing.T) {
	for _, tc := range []struct {
		name, engine, file string
		adopted            bool
	}{
		{"unrecognised files", "testadopt", "000001.log", false},
		{"driver without Recognize", "testplain", "MINE", false},
		{"recognised store", "testadopt", "MINE", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte("data"), 0o644); err != nil {
				t.Fatal(err)
			}
			db, err := engine.Open(tc.engine, dir, nil)
			if !tc.adopted {
				if !errors.Is(err, engine.ErrWrongEngine) {
					t.Fatalf("Open = %v, want ErrWrongEngine", err)
				}
				entries, _ := os.ReadDir(dir)
				if len(entries) != 1 || entries[0].Name() != tc.file {
					t.Errorf("directory holds %v after a refused open, want only %s", entries, tc.file)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open = %v, want the recognised store adopted", err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "ENGINE")); err != nil || string(b) != tc.engine+"\n" {
				t.Errorf("marker %q, %v after adopting", b, err)
			}
		})
	}
}
