package etcd_test

import (
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/etcd"
)

// TestEngine runs the acceptance suite against a local 3-member cluster
// that each engine.Open starts in the test's directory.
func TestEngine(t *testing.T) { enginetest.RunEngine(t, "etcd", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "etcd") }

// TestThroughOpen checks what a caller of engine.Open reaches: the copies
// a local cluster keeps, and the backend's Describe, PIDs and Sizes
// through engine.BackendAs.
func TestThroughOpen(t *testing.T) {
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
