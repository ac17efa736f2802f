package harness

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	_ "github.com/tsbench/storage/engine/pebble" // a registered engine to report
)

func TestCollectEnvironment(t *testing.T) {
	dir := t.TempDir()
	e := CollectEnvironment(filepath.Join(dir, "not", "created", "yet"))
	if e.Cores != runtime.NumCPU() || e.GoVersion != runtime.Version() || e.OS != runtime.GOOS {
		t.Errorf("runtime facts: %+v", e)
	}
	if e.Filesystem == "" || e.Filesystem != filesystem(dir) {
		t.Errorf("file system of a path still to be created: %q, of its parent %q", e.Filesystem, filesystem(dir))
	}
	if runtime.GOOS == "linux" && (e.Kernel == "" || e.MemoryBytes <= 0 || e.CPUModel == "") {
		t.Errorf("Linux facts missing: kernel %q, memory %d, CPU %q", e.Kernel, e.MemoryBytes, e.CPUModel)
	}
	if !filepath.IsAbs(e.DataPath) || len(e.CommandLine) == 0 || e.Start.IsZero() {
		t.Errorf("run facts: %+v", e)
	}
	if _, ok := e.EngineVersions["pebble"]; !ok {
		t.Errorf("registered engine pebble has no version entry: %v", e.EngineVersions)
	}
	if b := e.EngineBuilds["pebble"]; !strings.HasPrefix(b, "Go module v") {
		t.Errorf("pebble's build is %q, want Go module vX.Y.Z", b)
	}

	// The Go runtime's settings that change a Go engine's memory are
	// recorded when set, and shown.
	t.Setenv("GOMEMLIMIT", "3GiB")
	e = CollectEnvironment(dir)
	if e.GoRuntime["GOMEMLIMIT"] != "3GiB" || !slices.Contains(e.Lines(), [2]string{"Go runtime", "GOMEMLIMIT=3GiB"}) {
		t.Errorf("GOMEMLIMIT=3GiB: recorded %v, shown %v", e.GoRuntime, e.Lines())
	}
}

func TestRanCorrectsTheVersion(t *testing.T) {
	e := Environment{EngineVersions: map[string]string{"etcd": "3.6.16"}, EngineBuilds: map[string]string{"etcd": "Go binary etcd-tsbench"}}
	e.Ran("etcd", Header{Version: "3.6.16", Description: "same"})
	if e.EngineBuilds["etcd"] != "Go binary etcd-tsbench" {
		t.Errorf("a run of the driver's version changed the build to %q", e.EngineBuilds["etcd"])
	}
	e.Ran("etcd", Header{Version: "3.4.23", Description: "etcd 3.4.23, binary /usr/bin/etcd"})
	if e.EngineVersions["etcd"] != "3.4.23" || e.EngineBuilds["etcd"] != "etcd 3.4.23, binary /usr/bin/etcd" {
		t.Errorf("after a run of 3.4.23: %q, %q", e.EngineVersions["etcd"], e.EngineBuilds["etcd"])
	}
}
