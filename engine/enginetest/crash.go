package enginetest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// crashEnv names the directory a child test process writes to until it
// is killed, for ReopenAfterKill; writing is what Run does in such a
// child. crashAck starts each line it prints for a batch it committed.
const (
	crashEnv = "ENGINETEST_CRASH_DIR"
	crashAck = "enginetest: committed "
)

// crashBatch is the number of entries of each batch the child commits.
const crashBatch = 10

// testReopenAfterKill runs this test binary again to commit numbered
// batches in dir, with the Factory's options, and print each one it
// committed; once it printed some it is killed with SIGKILL, as a crash
// of the process. Reopened, the store must hold every batch the child
// reported whole, and no batch partly. This is what the profile "none"
// promises, and "batch" more so.
func testReopenAfterKill(t *testing.T, open Factory, dir string) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary to run a second process: %v", err)
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	cmd := exec.Command(exe, "-test.run=^"+regexp.QuoteMeta(top)+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	waitGone := adoptOrphans()
	if err := cmd.Start(); err != nil {
		waitGone()
		t.Fatal(err)
	}
	// acks carries the number of each batch the child reported; it is
	// closed when the child's output ends.
	acks := make(chan int, 1024)
	go func() {
		defer close(acks)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), crashAck); ok {
				if b, err := strconv.Atoi(n); err == nil {
					acks <- b
				}
			}
		}
	}()
	acked, deadline := -1, time.After(time.Minute)
wait:
	for acked < 50 {
		select {
		case b, ok := <-acks:
			if !ok {
				break wait
			}
			acked = b
		case <-deadline:
			break wait
		}
	}
	cmd.Process.Kill()
	for b := range acks { // what the child printed before it died
		acked = b
	}
	cmd.Wait()
	waitGone()
	if acked < 0 {
		t.Fatalf("the child process committed no batch:\n%s", stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) <= 1 {
		t.Skip("the engine keeps nothing in its directory but the marker, so a process kill loses all")
	}
	db := mustOpen(t, open, dir)
	count := map[int]int{}
	for _, e := range scan(t, db, nil, nil) {
		var b, i int
		if _, err := fmt.Sscanf(e.k, "k/%06d/%02d", &b, &i); err != nil || e.v != fmt.Sprintf("%d.%d", b, i) {
			t.Fatalf("unexpected entry %v", e)
		}
		count[b]++
	}
	for b := 0; b <= acked; b++ {
		if count[b] != crashBatch {
			t.Errorf("batch %d, committed before the kill, has %d of its %d entries after a reopen", b, count[b], crashBatch)
		}
	}
	for b, n := range count {
		if n != crashBatch {
			t.Errorf("batch %d is torn: %d of its %d entries", b, n, crashBatch)
		}
	}
}

// crashWrite is Run in the child of testReopenAfterKill: it commits
// batches in dir and prints the number of each, until it is killed.
func crashWrite(t *testing.T, open Factory, dir string) {
	db, err := open(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	for n := 0; n < 1_000_000; n++ {
		for i := range crashBatch {
			b.Put(fmt.Appendf(nil, "k/%06d/%02d", n, i), fmt.Appendf(nil, "%d.%d", n, i))
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s%d\n", crashAck, n)
	}
	time.Sleep(time.Hour) // killed by the parent
}
