package harness

import (
	"os/exec"
	"testing"
	"time"
)

// TestSpanCountsEngineProcesses checks that a span charges the CPU and
// memory of the processes it is given, as an engine working in other
// processes needs.
func TestSpanCountsEngineProcesses(t *testing.T) {
	busy := exec.Command("sh", "-c", "while :; do :; done")
	if err := busy.Start(); err != nil {
		t.Skipf("no sh: %v", err)
	}
	defer busy.Wait()
	defer busy.Process.Kill()
	s, err := StartSpan(busy.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // this process idles, the other spins
	var warned []string
	c := s.End(func(kind string, err error) { warned = append(warned, kind+": "+err.Error()) })
	if len(warned) > 0 {
		t.Fatalf("figures missing: %v", warned)
	}
	if p := c.Processes; p == nil || p.Count != 1 || p.PeakRSS <= 0 {
		t.Fatalf("Processes %+v; want 1 process with its memory", p)
	}
	if p := c.Processes; p.CPUUser+p.CPUSys < 50*time.Millisecond || p.CPUUser > c.CPUUser || p.CPUSys > c.CPUSys {
		t.Errorf("the process's CPU %+v: want its part of the total, %v", p, c.CPUUser+c.CPUSys)
	}
	if c.CPUUser+c.CPUSys < 50*time.Millisecond {
		t.Errorf("CPU %v over 300ms of another process spinning: its CPU time is not counted", c.CPUUser+c.CPUSys)
	}

	busy.Process.Kill()
	busy.Wait()
	s, err = StartSpan(busy.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	warned = nil
	if c := s.End(func(kind string, err error) { warned = append(warned, kind) }); c.Processes == nil || c.Processes.Count != 0 || len(warned) == 0 {
		t.Errorf("a span over an exited process counted %+v and warned %v; want 0 processes and a warning", c.Processes, warned)
	}
}
