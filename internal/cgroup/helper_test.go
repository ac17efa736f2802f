package cgroup

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// helperEnv makes the test binary a helper process: it reads commands
// from standard input, one a line, and answers each with one line.
const helperEnv = "CGROUP_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		if err := runHelper(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// selfReply is the helper's answer to "self".
type selfReply struct {
	Path    string `json:"path"`
	Limit   int64  `json:"limit"`
	Current int64  `json:"current"`
}

// runHelper serves these commands until its input ends:
//
//	alloc N    map N MiB of anonymous memory and touch every page
//	free       unmap all that alloc mapped
//	read PATH  read the file at PATH to its end
//	self       answer a selfReply for Self()
//
// Memory comes from mmap, outside the Go heap, so that neither the
// garbage collector nor the race detector's shadow memory blurs it.
func runHelper(in io.Reader, out io.Writer) error {
	var mapped [][]byte
	lines := bufio.NewScanner(in)
	for lines.Scan() {
		cmd, arg, _ := strings.Cut(lines.Text(), " ")
		reply := "ok"
		switch cmd {
		case "alloc":
			mib, err := strconv.Atoi(arg)
			if err != nil {
				return err
			}
			b, err := unix.Mmap(-1, 0, mib<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
			if err != nil {
				return err
			}
			for i := 0; i < len(b); i += os.Getpagesize() {
				b[i] = 1
			}
			mapped = append(mapped, b)
		case "free":
			for _, b := range mapped {
				if err := unix.Munmap(b); err != nil {
					return err
				}
			}
			mapped = nil
		case "read":
			f, err := os.Open(arg)
			if err != nil {
				return err
			}
			_, err = io.Copy(io.Discard, f)
			f.Close()
			if err != nil {
				return err
			}
		case "self":
			var r selfReply
			g, err := Self()
			if err != nil {
				return err
			}
			if g != nil {
				u, err := g.Usage()
				if err != nil {
					return err
				}
				r = selfReply{Path: g.Path(), Limit: g.Limit(), Current: u.Current}
			}
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			reply = string(b)
		default:
			return fmt.Errorf("unknown command %q", cmd)
		}
		if _, err := fmt.Fprintln(out, reply); err != nil {
			return err
		}
	}
	return lines.Err()
}

// helper is a running helper process.
type helper struct {
	cmd  *exec.Cmd
	in   *os.File
	out  *bufio.Reader
	done chan struct{}
	err  error // cmd.Wait's, once done is closed
}

// startHelper starts a helper process with attr. The test's cleanup
// ends its input, and kills it only if it does not exit then.
func startHelper(t *testing.T, attr *syscall.SysProcAttr) *helper {
	t.Helper()
	// Pipes of our own, not cmd's, so that Wait closes nothing a reader
	// still uses.
	stdin, in, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	out, stdout, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	// The race detector's exit delay would add a second to each helper.
	cmd.Env = append(os.Environ(), helperEnv+"=1", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	cmd.SysProcAttr = attr
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, os.Stderr
	err = cmd.Start()
	stdin.Close()
	stdout.Close()
	if err != nil {
		in.Close()
		out.Close()
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, in: in, out: bufio.NewReader(out), done: make(chan struct{})}
	go func() {
		h.err = cmd.Wait()
		close(h.done)
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-h.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-h.done
		}
		out.Close()
	})
	return h
}

// do sends the helper a command and returns its answer.
func (h *helper) do(command string) (string, error) {
	if _, err := fmt.Fprintln(h.in, command); err != nil {
		return "", err
	}
	line, err := h.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("helper gave no answer to %q: %w", command, err)
	}
	return strings.TrimSuffix(line, "\n"), nil
}

// mustDo is do for commands that must succeed.
func (h *helper) mustDo(t *testing.T, command string) string {
	t.Helper()
	reply, err := h.do(command)
	if err != nil {
		t.Fatal(err)
	}
	return reply
}

// wait waits for the helper to exit and returns cmd.Wait's error.
func (h *helper) wait() error {
	<-h.done
	return h.err
}

// killedBySignal reports whether err from cmd.Wait says SIGKILL ended
// the process.
func killedBySignal(err error) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return false
	}
	status, ok := exit.Sys().(syscall.WaitStatus)
	return ok && status.Signaled() && status.Signal() == syscall.SIGKILL
}
