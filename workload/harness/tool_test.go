package harness

import "testing"

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
