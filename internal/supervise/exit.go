package supervise

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// Why says in one line how the child ended, given Wait's error err: how
// it exited (DescribeExit) and the line of its output that says why
// (crashLine): "exited with status 2: panic: ...".
func (c *Child) Why(err error) string {
	why := DescribeExit(err)
	if line := crashLine(c.Output()); line != "" {
		why += ": " + line
	}
	return why
}

// DescribeExit says how a child ended: "exited with status 3", "was
// killed by a signal (segmentation fault)".
func DescribeExit(err error) string {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return "failed: " + err.Error()
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		d := ws.Signal().String()
		if ws.Signal() == syscall.SIGKILL {
			d += "; out of memory?"
		}
		return "was killed by a signal (" + d + ")"
	}
	return "exited with status " + strconv.Itoa(ee.ExitCode())
}

// crashLine is the line of a child's output that says why it died: a Go
// panic or fatal error, a C++ exception or assertion, else the last line
// it wrote (a library's fatal log message), or "" if it wrote nothing.
func crashLine(output []byte) string {
	last := ""
	for _, line := range strings.Split(string(output), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		for _, p := range []string{"panic: ", "fatal error: ", "terminate called", "unexpected fault address", "SIGBUS", "SIGSEGV"} {
			if strings.HasPrefix(line, p) {
				return shorten(line)
			}
		}
		if strings.Contains(line, "Assertion `") {
			return shorten(line)
		}
		last = line
	}
	return shorten(last)
}

// shorten keeps a line of output short enough for a report's column.
func shorten(line string) string {
	if len(line) > 300 {
		return line[:300] + "..."
	}
	return line
}
