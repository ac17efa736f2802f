package powercut

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestCleanupStaleMount kills the server process: the mount is left dead
// until Cleanup detaches it, and the store shows what had been durable.
func TestCleanupStaleMount(t *testing.T) {
	s := newStore(t, Options{})
	writeFile(t, s.path("synced"), []byte("synced"), true)
	syncDir(t, s.mnt)
	writeFile(t, s.path("pending"), []byte("pending"), false)
	parent := filepath.Dir(s.mnt)
	if stale, err := Stale(parent); err != nil || len(stale) != 0 {
		t.Fatalf("Stale of a served mount = %v, %v; want none", stale, err)
	}
	if err := s.fs.server.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.fs.exited
	s.fs.ctl.Close()
	if stale, err := Stale(parent); err != nil || !slices.Equal(stale, []string{s.mnt}) {
		t.Fatalf("Stale after the server died = %v, %v; want [%s]", stale, err, s.mnt)
	}

	if _, err := os.Stat(s.path("synced")); !errors.Is(err, syscall.ENOTCONN) {
		t.Fatalf("stat on the dead mount: got %v, want ENOTCONN", err)
	}
	if err := Cleanup(s.mnt); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.mnt); err != nil {
		t.Fatalf("after Cleanup: %v", err)
	}
	s.mount()
	wantFile(t, s.path("synced"), []byte("synced"))
	wantGone(t, s.path("pending"))
}

// TestCutKilledServer: Cut of a mount whose server died reports it and
// detaches the dead mount.
func TestCutKilledServer(t *testing.T) {
	s := newStore(t, Options{})
	if err := s.fs.server.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := s.fs.Cut(); err == nil {
		t.Error("Cut of a killed server succeeded")
	}
	if _, err := os.Stat(s.mnt); err != nil {
		t.Fatalf("after the Cut: %v", err)
	}
}

// The helper process mounts the store named by these variables, syncs a
// file, leaves another pending, says "ready" and waits to be killed.
const (
	helperMount   = "POWERCUT_HELPER_MOUNT"
	helperBacking = "POWERCUT_HELPER_BACKING"
)

func TestHelperProcess(t *testing.T) {
	mnt, backing := os.Getenv(helperMount), os.Getenv(helperBacking)
	if mnt == "" {
		t.Skip("run by TestKillMounter")
	}
	f, err := Mount(mnt, backing, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Cut() // not reached: the parent kills this process
	writeFile(t, filepath.Join(mnt, "synced"), []byte("synced"), true)
	syncDir(t, mnt)
	writeFile(t, filepath.Join(mnt, "pending"), []byte("pending"), false)
	os.Stdout.WriteString("ready\n")
	select {}
}

// TestKillMounter kills the process that mounted: its server cuts the
// power and detaches the mount, leaving nothing to clean up.
func TestKillMounter(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	s := &store{t: t, backing: t.TempDir(), mnt: t.TempDir()}
	t.Cleanup(func() { Cleanup(s.mnt) })
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperMount+"="+s.mnt, helperBacking+"="+s.backing)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if line != "ready\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}

	// The server detaches the mount soon after it reads the end of the
	// control socket.
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := Mount(s.mnt, s.backing, Options{})
		if err == nil {
			s.fs = f
			break
		}
		if !errors.Is(err, ErrBusy) || time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	defer s.fs.Cut()
	wantFile(t, s.path("synced"), []byte("synced"))
	wantGone(t, s.path("pending"))
}
