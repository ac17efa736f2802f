package measure

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadProc reads this process as another one would, so that its CPU
// time and I/O can be made to change.
func TestReadProc(t *testing.T) {
	self := os.Getpid()
	before, err := ReadProc(self)
	if err != nil {
		t.Skipf("no /proc/<pid> here: %v", err)
	}
	// Burn 300ms of CPU as getrusage counts it.
	x := 0
	for {
		s, err := Take()
		if err != nil {
			t.Fatal(err)
		}
		if s.User+s.Sys-before.User-before.Sys >= 300*time.Millisecond {
			break
		}
		for range 100_000 {
			x++
		}
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := ReadProc(self)
	if err != nil {
		t.Fatal(err)
	}
	d := after.Sub(before)
	if d.User+d.Sys < 200*time.Millisecond {
		t.Errorf("burned 300ms of CPU, ReadProc counts %v (%d)", d.User+d.Sys, x)
	}
	if d.IO.WriteBytes < 1<<20 {
		t.Errorf("wrote 1 MiB, ReadProc counts %+v", d.IO)
	}
}

func TestProcsOfAChild(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep: %v", err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	defer cmd.Process.Kill()
	if err := ResetPeakRSSOf(pid); err != nil {
		t.Errorf("ResetPeakRSSOf(child): %v", err)
	}
	if rss, err := PeakRSSOf(pid); err != nil || rss <= 0 {
		t.Errorf("PeakRSSOf(child) = %d, %v", rss, err)
	}
	earlier, err := ReadProcs([]int{pid})
	if err != nil || len(earlier) != 1 {
		t.Fatalf("ReadProcs(child) = %v, %v", earlier, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	later, err := ReadProcs([]int{pid, os.Getpid()})
	if err == nil || len(later) != 1 {
		t.Fatalf("ReadProcs after the child exited = %v, %v; want only this process and an error naming the child", later, err)
	}
	if _, n := SumProcs(earlier, later); n != 0 {
		t.Errorf("SumProcs counted %d processes, want 0: none is in both samples", n)
	}
}

func TestSumProcs(t *testing.T) {
	earlier := map[int]Proc{1: {User: time.Second, IO: IO{WriteBytes: 10}}, 2: {Sys: time.Second}}
	later := map[int]Proc{1: {User: 3 * time.Second, IO: IO{WriteBytes: 15}}, 2: {Sys: 2 * time.Second}, 3: {User: time.Hour}}
	sum, n := SumProcs(earlier, later)
	if want := (Proc{User: 2 * time.Second, Sys: time.Second, IO: IO{WriteBytes: 5}}); n != 2 || sum != want {
		t.Errorf("SumProcs = %+v, %d; want %+v, 2", sum, n, want)
	}
}

func TestStartTime(t *testing.T) {
	a, err := StartTime(os.Getpid())
	if err != nil || a <= 0 {
		t.Fatalf("StartTime(self) = %d, %v; want a positive tick count", a, err)
	}
	if b, _ := StartTime(os.Getpid()); b != a {
		t.Errorf("StartTime(self) changed from %d to %d", a, b)
	}
	if _, err := StartTime(1 << 30); err == nil {
		t.Error("StartTime of a pid that cannot exist gave no error")
	}
}

// TestActivityOfAChild reads the activity of a shell and, through
// ChildrenOf, of the sleep it started, and fails once the shell is gone.
func TestActivityOfAChild(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := cmd.Start(); err != nil {
		t.Skipf("no sh: %v", err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var kids []int
	for deadline := time.Now().Add(5 * time.Second); len(kids) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		kids = ChildrenOf(pid)
	}
	if len(kids) != 1 {
		t.Fatalf("ChildrenOf(sh) = %v, want the sleep", kids)
	}
	if _, err := ReadActivity(pid); err != nil {
		t.Errorf("ReadActivity(sh): %v", err)
	}
	if a, err := ReadActivity(os.Getpid()); err != nil || a.CPU <= 0 {
		t.Errorf("ReadActivity(self) = %+v, %v; want some CPU time", a, err)
	}
	for _, k := range kids {
		syscall.Kill(k, syscall.SIGKILL)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := ReadActivity(pid); err == nil {
		t.Error("ReadActivity of a reaped process gave no error")
	}
}
