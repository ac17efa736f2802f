package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

func TestRegisterPanics(t *testing.T) {
	open := func(string, engine.Options) (engine.Backend, error) { return nil, nil }
	for _, c := range []struct {
		name   string
		driver engine.Driver
	}{
		{"testmem", engine.Driver{Open: open}}, // taken
		{"testnoopen", engine.Driver{}},        // no Open, no Process
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q, ...) did not panic", c.name)
				}
			}()
			engine.Register(c.name, c.driver)
		}()
	}
	if slices.Contains(engine.Names(), "testnoopen") {
		t.Errorf("a driver without Open was registered")
	}
}

func TestNamesSorted(t *testing.T) {
	names := engine.Names()
	if !slices.IsSorted(names) {
		t.Fatalf("Names() = %v, not sorted", names)
	}
	for _, n := range []string{"testfail", "testmem", "testplain"} {
		if !slices.Contains(names, n) {
			t.Fatalf("Names() = %v, missing %q", names, n)
		}
	}
}

// TestAllNames: Names lists testbyname, registered OnlyByName, and
// testprocess, in a group (drivers_test.go); AllNames, what "all" stands
// for, lists the others.
func TestAllNames(t *testing.T) {
	all := engine.AllNames()
	if !slices.IsSorted(all) || slices.Contains(all, "testbyname") {
		t.Errorf("AllNames() = %v, want it sorted and without testbyname, registered OnlyByName", all)
	}
	if !slices.Contains(engine.Names(), "testbyname") {
		t.Errorf("Names() = %v, want testbyname among them", engine.Names())
	}
	if want := slices.DeleteFunc(engine.Names(), func(n string) bool { return n == "testbyname" || n == "testprocess" }); !slices.Equal(all, want) {
		t.Errorf("AllNames() = %v, want %v", all, want)
	}
}

// TestProcessEngines: an engine that runs in a process of its own
// (Driver.Process) registers without Open, is listed by its group and not
// by all, and Open refuses it with ErrOutOfProcess before it makes the
// directory; a name taken by a group is refused.
func TestProcessEngines(t *testing.T) {
	if g := engine.GroupNames("testgroup"); !slices.Equal(g, []string{"testprocess"}) {
		t.Errorf("GroupNames(testgroup) = %v, want [testprocess]", g)
	}
	if !slices.Contains(engine.Groups(), "testgroup") || len(engine.GroupNames("")) != 0 {
		t.Errorf("Groups() = %v, GroupNames(\"\") = %v; want testgroup, none", engine.Groups(), engine.GroupNames(""))
	}
	if slices.Contains(engine.AllNames(), "testprocess") || !slices.Contains(engine.Names(), "testprocess") {
		t.Errorf("testprocess in Names %v, AllNames %v: want only in Names", engine.Names(), engine.AllNames())
	}
	dir := filepath.Join(t.TempDir(), "db")
	if _, err := engine.Open("testprocess", dir, nil); !errors.Is(err, engine.ErrOutOfProcess) {
		t.Errorf("Open(testprocess) = %v, want ErrOutOfProcess", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(testprocess) left %s: %v", dir, err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("Register(testgroup, ...) did not panic: a group's name")
			}
		}()
		engine.Register("testgroup", engine.Driver{Process: func() (string, []string, error) { return "", nil, nil }})
	}()
}

func TestOpenUnknownEngine(t *testing.T) {
	_, err := engine.Open("nosuch", t.TempDir(), nil)
	if !errors.Is(err, engine.ErrUnknownEngine) {
		t.Fatalf("Open(nosuch) = %v, want ErrUnknownEngine", err)
	}
	for _, n := range engine.Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list registered engine %q", err, n)
		}
	}
	if _, err := engine.Lookup("nosuch"); !errors.Is(err, engine.ErrUnknownEngine) {
		t.Errorf("Lookup(nosuch) = %v, want ErrUnknownEngine", err)
	}
}

func TestVersion(t *testing.T) {
	if v := engine.Version("testmem"); v != "1.0" {
		t.Errorf("Version(testmem) = %q", v)
	}
	if v := engine.Version("testplain"); v != "" {
		t.Errorf("Version of a driver without one = %q, want empty", v)
	}
	if v := engine.Version("nosuch"); v != "" {
		t.Errorf("Version(nosuch) = %q, want empty", v)
	}
}

func TestOpenFillsDefaults(t *testing.T) {
	db, err := engine.Open("testmem", t.TempDir(), &engine.Options{CacheSize: 5 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := testmem.lastOptions()
	if got.CacheSize != 5<<20 || got.Sync != engine.SyncNone || got.WriteBufferSize != engine.DefaultWriteBufferSize {
		t.Fatalf("driver got %+v, want CacheSize 5 MiB and defaults elsewhere", got)
	}
	if _, err := engine.Open("testmem", t.TempDir(), &engine.Options{Sync: "always"}); !errors.Is(err, engine.ErrInvalidOptions) {
		t.Fatalf("Open with sync=always = %v, want ErrInvalidOptions", err)
	}
}

func TestOpenMarker(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "db") // Open creates missing parents
	db, err := engine.Open("testmem", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	marker, err := os.ReadFile(filepath.Join(dir, "ENGINE"))
	if err != nil || strings.TrimSpace(string(marker)) != "testmem" {
		t.Fatalf("marker = %q, %v; want testmem", marker, err)
	}

	db, err = engine.Open("testmem", dir, nil)
	if err != nil {
		t.Fatalf("reopen with the same engine: %v", err)
	}
	db.Close()

	_, err = engine.Open("testplain", dir, nil)
	if !errors.Is(err, engine.ErrWrongEngine) {
		t.Fatalf("open testmem's directory as testplain = %v, want ErrWrongEngine", err)
	}
	if !strings.Contains(err.Error(), "testmem") {
		t.Errorf("error %q does not name the owner", err)
	}
}

func TestOpenFailureLeavesNoMarker(t *testing.T) {
	dir := t.TempDir()
	if _, err := engine.Open("testfail", dir, nil); !errors.Is(err, errTestFail) {
		t.Fatalf("Open(testfail) = %v, want the driver's error", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ENGINE")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a failed first open left a marker: %v", err)
	}
	// The directory is still free for another engine.
	db, err := engine.Open("testmem", dir, nil)
	if err != nil {
		t.Fatalf("open after a failed open by another engine: %v", err)
	}
	db.Close()
}

func TestOpenUnderFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Open("testmem", filepath.Join(file, "db"), nil); err == nil {
		t.Fatal("Open under a regular file succeeded")
	}
}

// TestOpenContextDone checks the fallback for a backend that cannot be
// interrupted: a done context is refused before it opens anything.
func TestOpenContextDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	if db, err := engine.OpenContext(ctx, "testmem", dir, nil); !errors.Is(err, context.Canceled) {
		if err == nil {
			db.Close()
		}
		t.Fatalf("OpenContext with a cancelled context = %v, want an error wrapping context.Canceled", err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("the directory holds %d entries after a refused open", len(left))
	}
}
