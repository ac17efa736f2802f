package etcd_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/etcd"
)

// openDB opens the engine in dir with own options, through
// etcd.Open rather than engine.Open, whose wrapper hides the methods
// beyond engine.Engine.
func openDB(t *testing.T, dir string, own *etcd.Options) *etcd.DB {
	t.Helper()
	db, err := etcd.Open(dir, engine.Options{Engine: own})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(b)
	return !strings.HasPrefix(strings.TrimSpace(s[strings.LastIndexByte(s, ')')+1:]), "Z")
}

// waitGone fails unless every pid has ended within timeout.
func waitGone(t *testing.T, pids []int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("member process %d still runs %v later", pid, timeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func TestCloseStopsMembers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := openDB(t, dir, nil)
	pids := db.PIDs()
	if len(pids) != etcd.DefaultMembers {
		t.Fatalf("PIDs = %v, want %d members", pids, etcd.DefaultMembers)
	}
	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("member %d is not running after Open", pid)
		}
	}
	if d := db.Describe(); !strings.Contains(d, "local cluster of 3 members") || !strings.HasPrefix(d, "etcd "+etcd.Version()) {
		t.Errorf("Describe = %q, want the version and a local cluster of 3 members", d)
	}
	start := time.Now()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %v", time.Since(start))
	waitGone(t, pids, 0)

	// The same directory restarts the same cluster, on the same ports.
	before, err := os.ReadFile(filepath.Join(dir, "etcd.json"))
	if err != nil {
		t.Fatal(err)
	}
	db = openDB(t, dir, nil)
	after, _ := os.ReadFile(filepath.Join(dir, "etcd.json"))
	if string(before) != string(after) {
		t.Errorf("etcd.json changed on reopen:\n%s\nto\n%s", before, after)
	}
	pids = db.PIDs()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pids, 0)
}

// helperEnv makes the test binary a process that opens a local cluster in
// the directory it names, prints the members' pids and waits to be killed.
const helperEnv = "TSBENCH_ETCD_HELPER_DIR"

func TestMembersDieWithTheirProcess(t *testing.T) {
	t.Parallel()
	if dir := os.Getenv(helperEnv); dir != "" {
		db := openDB(t, dir, nil)
		fmt.Println("pids", strings.Trim(fmt.Sprint(db.PIDs()), "[]"))
		time.Sleep(time.Minute) // killed long before
		t.Fatal("not killed")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMembersDieWithTheirProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pids []int
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 && f[0] == "pids" {
			for _, p := range f[1:] {
				var pid int
				fmt.Sscan(p, &pid)
				pids = append(pids, pid)
			}
			break
		}
	}
	if len(pids) != etcd.DefaultMembers {
		t.Fatalf("helper printed pids %v, want %d", pids, etcd.DefaultMembers)
	}
	cmd.Process.Signal(syscall.SIGKILL) // no chance to Close
	cmd.Wait()
	waitGone(t, pids, 5*time.Second)
}

func TestFailedStartLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	bin := fakeEtcd(t, "etcd Version: 3.6.16", 1)
	_, err := engine.Open("etcd", dir, &engine.Options{Engine: &etcd.Options{Binary: bin}})
	if !errors.Is(err, etcd.ErrStart) {
		t.Fatalf("Open with an etcd that exits at once = %v, want ErrStart", err)
	}
	t.Log(err)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("a failed first Open left %s behind", e.Name())
	}
}

func TestMissingBinary(t *testing.T) {
	dir := t.TempDir()
	_, err := engine.Open("etcd", dir, &engine.Options{Engine: &etcd.Options{Binary: filepath.Join(dir, "no-etcd")}})
	if !errors.Is(err, etcd.ErrNoEtcd) || !strings.Contains(err.Error(), "make setup") {
		t.Fatalf("Open without an etcd binary = %v, want ErrNoEtcd naming make setup", err)
	}
}

func TestSecondOpenRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := enginetest.Open(t, "etcd", dir, nil)
	if _, err := engine.Open("etcd", dir, nil); !errors.Is(err, engine.ErrLocked) {
		t.Fatalf("second Open of one directory = %v, want ErrLocked", err)
	}
	if err := db.Put([]byte("k"), []byte("v")); err != nil {
		t.Fatalf("the first engine after a refused second Open: %v", err)
	}
}

// TestOpenContextGivesUp checks that a local cluster's Open stops
// waiting when its context is done: an error wrapping the context's, no
// member left running, and nothing left in the directory.
func TestOpenContextGivesUp(t *testing.T) {
	if _, err := exec.LookPath(etcd.DefaultBinary); err != nil {
		t.Skip("no " + etcd.DefaultBinary + " binary: scripts/setup.sh builds it")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	db, err := engine.OpenContext(ctx, "etcd", dir, nil)
	if err == nil {
		db.Close()
		t.Fatal("OpenContext with a done context opened the engine")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("OpenContext = %v, want an error wrapping context.DeadlineExceeded", err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("the directory holds %d entries after a failed first open", len(left))
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), dir) {
			t.Errorf("a process still runs in %s: %s", dir, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
}
