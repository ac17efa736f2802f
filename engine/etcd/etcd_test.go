package etcd_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/etcd"
)

// The tests that start clusters of their own run side by side, after
// TestEngine (whose t.Setenv keeps it sequential): each mostly waits on
// its members.

// TestEngine runs the acceptance suite on one local 3-member cluster that
// the test starts, each engine under a prefix of its own on it, as on a
// given cluster: one start rather than one per Open, hundreds of them.
// What only a local cluster does (start, stop, restart, a killed member,
// Sizes, Compact's defragmentation of its own members) has tests of its
// own, and TestThroughOpen runs a local cluster through engine.Open.
func TestEngine(t *testing.T) {
	enginetest.RunEngine(t, "etcd", &engine.Options{Engine: &etcd.Options{Endpoints: sharedCluster(t)}})
}

// sharedEnv hands the shared cluster's endpoints to the suite's second
// processes, which use it rather than start their own.
const sharedEnv = "TSBENCH_ETCD_SHARED_ENDPOINTS"

// sharedCluster starts a local cluster for the test, or in a second
// process returns the one its parent started, and returns its client
// endpoints.
func sharedCluster(t *testing.T) []string {
	if v := os.Getenv(sharedEnv); v != "" {
		return strings.Split(v, ",")
	}
	dir := t.TempDir()
	db := openDB(t, dir, nil)
	t.Cleanup(func() { db.Close() })
	eps := endpointsOf(t, dir)
	t.Setenv(sharedEnv, strings.Join(eps, ","))
	return eps
}

func TestConfig(t *testing.T) { enginetest.Config(t, "etcd") }

// TestThroughOpen checks what a caller of engine.Open reaches: the copies
// a local cluster keeps, and the backend's Describe, PIDs and Sizes
// through engine.BackendAs.
func TestThroughOpen(t *testing.T) {
	t.Parallel()
	db := enginetest.Open(t, "etcd", t.TempDir(), nil)
	if n := engine.CopiesOf(db); n != etcd.DefaultMembers {
		t.Errorf("CopiesOf = %d, want one per member (%d)", n, etcd.DefaultMembers)
	}
	if d, ok := engine.BackendAs[engine.Describer](db); !ok || !strings.Contains(d.Describe(), "local cluster of 3 members") {
		t.Errorf("BackendAs[Describer] = %v, %v; want the cluster's description", d, ok)
	}
	if p, ok := engine.BackendAs[engine.Processes](db); !ok || len(p.PIDs()) != etcd.DefaultMembers {
		t.Errorf("BackendAs[Processes] = %v, %v; want the members' pids", p, ok)
	}
	s, ok := engine.BackendAs[engine.Sizer](db)
	if !ok {
		t.Fatal("BackendAs[Sizer]: not a Sizer")
	}
	if inUse, onDisk, err := s.Sizes(); err != nil || inUse <= 0 || onDisk < inUse {
		t.Errorf("Sizes = %d, %d, %v; want bytes in use within those on disk", inUse, onDisk, err)
	}
}
