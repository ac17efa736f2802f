package main

import (
	"testing"
	"time"
)

// TestMemorySample checks that -memory-sample reaches the children: by
// default every step has memory by kind, and with a negative period none
// does and the environment records that nothing was sampled.
func TestMemorySample(t *testing.T) {
	name := somePureGoEngines(t, 1)[0]
	for _, tc := range []struct {
		arg     string
		sampled bool
	}{{"-memory-sample=200ms", true}, {"-memory-sample=-1s", false}} {
		stdout, _ := runOK(t, "-engine", name, "-points", "2000", "-series", "20", "-format", "json", "-path", t.TempDir(), tc.arg)
		rep := decodeReport(t, stdout)
		if got := rep.Env.MemorySample < 0; got == tc.sampled {
			t.Errorf("%s: environment's memory_sample %v", tc.arg, time.Duration(rep.Env.MemorySample))
		}
		for _, res := range rep.Results {
			for _, st := range res.Steps {
				if got := st.Memory != nil; got != tc.sampled {
					t.Errorf("%s: %s step %q has memory by kind: %v, want %v", tc.arg, res.Engine, st.Name, got, tc.sampled)
				}
			}
		}
	}
}
