package supervise

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// sh is a child running script in sh.
func sh(t *testing.T, script string) Command {
	t.Helper()
	path, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	return Command{Path: path, Args: []string{"sh", "-c", script}}
}

// TestChildPipes: a child's result, status, progress and output each
// reach their own place, and its exit says why in one line.
func TestChildPipes(t *testing.T) {
	var progress bytes.Buffer
	cmd := sh(t, `
		read job
		echo '{"step":"write","done":5,"total":10}' >&5
		echo "drawn $job" >&4
		printf '{"ok":true}' >&3
		echo 'panic: broken' >&2
		echo 'goroutine 1' >&2
		exit 2`)
	cmd.Job = []byte("job-1\n")
	c, err := Start(context.Background(), cmd, Options{Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Wait()
	if got := c.Why(err); got != "exited with status 2: panic: broken" {
		t.Errorf("Why = %q", got)
	}
	if string(c.Result()) != `{"ok":true}` {
		t.Errorf("Result = %q", c.Result())
	}
	if st, _ := c.Status().Last(); st.Step != "write" || st.Done != 5 || st.Total != 10 {
		t.Errorf("last status %+v", st)
	}
	if !strings.Contains(string(c.Output()), "goroutine 1") {
		t.Errorf("Output = %q", c.Output())
	}
	if progress.String() != "drawn job-1\n" {
		t.Errorf("progress %q", progress.String())
	}
	if err := c.Release(); err != nil {
		t.Error(err)
	}
}

// TestChildEnded: the watchdog, the time limit and the caller's context
// each end a child that would run for a minute, with their own error.
func TestChildEnded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel bool // the context ends after 200ms
		opt    Options
		want   error
	}{
		{"stall", false, Options{Stall: 200 * time.Millisecond}, ErrStalled},
		{"max time", false, Options{MaxTime: 200 * time.Millisecond}, ErrMaxTime},
		{"context", true, Options{MaxTime: time.Hour}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				time.AfterFunc(200*time.Millisecond, cancel)
			}
			start := time.Now()
			c, err := Start(ctx, sh(t, "exec sleep 60"), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			err = c.Wait()
			if d := time.Since(start); d > StopDelay {
				t.Errorf("took %v", d)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("Wait = %v, want %v", err, tc.want)
			}
			if tc.want == nil && (err == nil || errors.Is(err, ErrMaxTime) || DescribeExit(err) != "was killed by a signal (terminated)") {
				t.Errorf("Wait = %v, want the SIGTERM's exit", err)
			}
		})
	}
}

func TestCapture(t *testing.T) {
	var c capture
	c.Write(bytes.Repeat([]byte("h"), captureLimit/2))
	c.Write(bytes.Repeat([]byte("m"), 100))
	c.Write(bytes.Repeat([]byte("t"), captureLimit/2))
	out := string(c.Bytes())
	if !strings.HasPrefix(out, "hhh") || !strings.HasSuffix(out, "ttt") || !strings.Contains(out, "[... 100 bytes left out ...]") || strings.Contains(out, "m") {
		t.Errorf("kept %d bytes: %.40q...%q", len(out), out, out[len(out)-40:])
	}
}

func TestCrashLine(t *testing.T) {
	for _, tc := range []struct{ output, want string }{
		{"", ""},
		{"warning\npanic: x\n\ngoroutine 1\n", "panic: x"},
		{"a\nb.cc:10: f: Assertion `x' failed.\nAborted\n", "b.cc:10: f: Assertion `x' failed."},
		{"first\nlast words\n\n", "last words"},
		{strings.Repeat("x", 400), strings.Repeat("x", 300) + "..."},
	} {
		if got := crashLine([]byte(tc.output)); got != tc.want {
			t.Errorf("crashLine(%q) = %q, want %q", tc.output, got, tc.want)
		}
	}
}
