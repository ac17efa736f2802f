package harness

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
	// This process idles while the other spins until it has had 100ms
	// of CPU: counted in CPU time, not wall time, since a loaded machine
	// may give it little of 300ms.
	spun(t, busy.Process.Pid, 100*time.Millisecond)
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
		t.Errorf("CPU %v over 100ms of CPU of another process: its CPU time is not counted", c.CPUUser+c.CPUSys)
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

// spun waits until process pid has used cpu of CPU time, as its
// /proc/PID/stat counts it (utime and stime, in clock ticks of 10ms).
func spun(t *testing.T, pid int, cpu time.Duration) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatal(err)
		}
		// The fields after the command's closing parenthesis: utime and
		// stime are the 12th and 13th.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		utime, _ := strconv.Atoi(f[11])
		stime, _ := strconv.Atoi(f[12])
		if time.Duration(utime+stime)*10*time.Millisecond >= cpu {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d had %d ticks of CPU in a minute, want %v", pid, utime+stime, cpu)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
