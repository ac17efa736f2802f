package timeseries

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine/memory"
)

// inProcesses is an engine that says it works in another process and
// reports its own sizes, as a local etcd cluster does.
type inProcesses struct {
	*memory.DB
	pid int
}

func (e inProcesses) PIDs() []int                  { return []int{e.pid} }
func (e inProcesses) Sizes() (int64, int64, error) { return 1000, 4000, nil }

// TestRunCountsEngineProcesses checks that every step measures the
// engine's processes and records its sizes, and that the report shows
// both.
func TestRunCountsEngineProcesses(t *testing.T) {
	busy := exec.Command("sh", "-c", "while :; do :; done")
	if err := busy.Start(); err != nil {
		t.Skipf("no sh: %v", err)
	}
	defer busy.Wait()
	defer busy.Process.Kill()
	db := inProcesses{memory.New(), busy.Process.Pid}
	defer db.Close()
	cfg := Config{Points: 20000, Series: 100, Batch: 100, Seed: 1}
	res, err := Run(db, t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Steps {
		if p := st.Processes; p == nil || p.Count != 1 || p.PeakRSS <= 0 {
			t.Errorf("%s: Processes = %+v, want the 1 process with its memory", st.Name, p)
		}
		if st.EngineSize == nil || *st.EngineSize != (EngineSize{InUse: 1000, OnDisk: 4000}) {
			t.Errorf("%s: EngineSize = %+v, want the engine's Sizes", st.Name, st.EngineSize)
		}
	}
	res.Engine, res.Description = "cluster", "a cluster of 1 member"
	text := Report{Results: []*Result{res}}.Page().Text()
	for _, want := range []string{"engine processes' peak RSS", "engine: in use", "Engine cluster ran on a cluster of 1 member", "the engine's processes included"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}
