package enginetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// holdEnv names the directory a child test process opens and holds for
// the OtherProcess check; holding is what Run does in such a child.
const (
	holdEnv   = "ENGINETEST_HOLD_DIR"
	holdReady = "enginetest: holding"
)

// testLockedInProcess opens a directory twice in one process: the second
// open must fail with engine.ErrLocked and leave the first working.
func testLockedInProcess(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	put(t, db, "a", "1")
	if err := safeOpen(t, open, dir); !errors.Is(err, engine.ErrLocked) {
		t.Fatalf("a second open of a directory open in this process = %v, want an error wrapping engine.ErrLocked", err)
	}
	put(t, db, "b", "2")
	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, []kv{{"a", "1"}, {"b", "2"}})
}

// testLockedOtherProcess runs this test binary again to open a directory
// and hold it: an open here must fail with engine.ErrLocked until the
// child closes it.
func testLockedOtherProcess(t *testing.T, open Factory, dir string) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary to run a second process: %v", err)
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	cmd := exec.Command(exe, "-test.run=^"+regexp.QuoteMeta(top)+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), holdEnv+"="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The reader reports whether the child said it holds dir, with its
	// output otherwise, and drains the rest; Wait must come after it ends.
	ready, drained := make(chan bool, 1), make(chan struct{})
	var out strings.Builder
	go func() {
		defer close(drained)
		found := false
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			switch {
			case found:
			case sc.Text() == holdReady:
				found = true
				ready <- true
			default:
				fmt.Fprintln(&out, sc.Text())
			}
		}
		if !found {
			ready <- false
		}
	}()
	wait := func() error {
		stdin.Close() // the child closes the engine and exits
		<-drained
		return cmd.Wait()
	}
	select {
	case ok := <-ready:
		if !ok {
			wait()
			t.Fatalf("the child process did not open %s:\n%s%s", dir, out.String(), stderr.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		wait()
		t.Fatalf("the child process did not open %s within a minute:\n%s", dir, stderr.String())
	}
	lockedErr := safeOpen(t, open, dir)
	if err := wait(); err != nil {
		t.Fatalf("child process: %v\n%s", err, stderr.String())
	}
	if !errors.Is(lockedErr, engine.ErrLocked) {
		t.Fatalf("open of a directory another process holds = %v, want an error wrapping engine.ErrLocked", lockedErr)
	}
	mustOpen(t, open, dir) // free again
}

// hold is Run in the child of testLockedOtherProcess: it opens dir, says
// so on stdout, and closes the engine when stdin closes.
func hold(t *testing.T, open Factory, dir string) {
	db, err := open(t, dir)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	defer db.Close()
	fmt.Println(holdReady)
	bufio.NewReader(os.Stdin).ReadString(0)
}
