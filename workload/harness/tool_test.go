package harness

import (
	"strings"
	"testing"
)

func TestToolString(t *testing.T) {
	for _, tc := range []struct {
		tool Tool
		want string
	}{
		{Tool{}, ""},
		{Tool{Module: "m", Version: "(devel)"}, "m (devel), no commit recorded (built without VCS information)"},
		{Tool{Module: "m", Version: "v1.2.0", Commit: "eb861c9f8435a1b2c3d4", Modified: true}, "m v1.2.0, commit eb861c9f8435 (modified)"},
	} {
		if got := tc.tool.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.tool, got, tc.want)
		}
	}
}

// TestEnvironmentInterrupted checks that an interrupted run's report
// says so first among its facts, naming what it lacks.
func TestEnvironmentInterrupted(t *testing.T) {
	e := Environment{Interrupted: []string{"rocksdb", "lmdb"}}
	if l := e.Lines()[0]; l[0] != "INTERRUPTED" || !strings.Contains(l[1], "rocksdb, lmdb") {
		t.Errorf("first line %q, want INTERRUPTED naming rocksdb, lmdb", l)
	}
	if l := (Environment{}).Lines()[0]; l[0] == "INTERRUPTED" {
		t.Errorf("a run that finished is marked interrupted")
	}
}
