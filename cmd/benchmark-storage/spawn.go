package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// childStopDelay is how long a child may take to exit after an interrupt
// before it is killed.
const childStopDelay = 10 * time.Second

// runEngine runs one engine in a child process of this same binary, so its
// memory, CPU time and I/O counters are its own and a crash loses only its
// own result. It always returns a result: a child that cannot start,
// crashes or writes none gives one holding that error.
func runEngine[R any](ctx context.Context, su suite[R], s *settings, rd *runDir, name, progressMode string, stderr io.Writer) *R {
	res, err := spawn(ctx, su, s, rd, name, progressMode, stderr)
	if res == nil {
		res = new(R)
	}
	su.label(res, name, err)
	return res
}

// spawn starts the child, waits for it and reads its result.
func spawn[R any](ctx context.Context, su suite[R], s *settings, rd *runDir, name, progressMode string, stderr io.Writer) (*R, error) {
	dir, err := rd.engineDir(name)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this program to start the engine process: %w", err)
	}
	resultPath := rd.resultFile(name)
	defer os.Remove(resultPath)

	cmd := exec.CommandContext(ctx, exe, append(childArgs(s, name, dir, resultPath, progressMode), su.args(s)...)...)
	// The child's stdout goes to stderr too: nothing it or its C libraries
	// print may mix into a report written to stdout.
	cmd.Stdout, cmd.Stderr = stderr, stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = childStopDelay
	// If this process is killed outright, the child goes too rather than
	// running on unobserved. The signal follows the thread that started the
	// child, so that thread is kept until the child ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	runtime.LockOSThread()
	runErr := cmd.Run()
	runtime.UnlockOSThread()

	res, readErr := readResult[R](resultPath)
	switch {
	case readErr == nil && runErr != nil && su.failure(res) == "":
		return res, fmt.Errorf("engine process %s after its result", describeExit(runErr))
	case readErr == nil:
		return res, nil
	case runErr != nil:
		return nil, fmt.Errorf("engine process %s", describeExit(runErr))
	case errors.Is(readErr, fs.ErrNotExist):
		return nil, errors.New("engine process exited without a result")
	default:
		return nil, fmt.Errorf("engine process left a broken result: %w", readErr)
	}
}

// childArgs are the flags that make this binary run one engine, but for
// the suite's own.
func childArgs(s *settings, name, dir, resultPath, progressMode string) []string {
	args := []string{
		"-" + childFlagPrefix + "result", resultPath,
		"-" + childFlagPrefix + "dir", dir,
		"-" + childFlagPrefix + "progress", progressMode,
		"-engine", name,
		"-seed", strconv.FormatUint(s.seed, 10),
	}
	if s.config != "" {
		args = append(args, "-config", s.config)
	}
	if s.sync != "" {
		args = append(args, "-sync", string(s.sync))
	}
	return append(args, s.engineFlags.args()...)
}

// readResult decodes the result a child wrote.
func readResult[R any](path string) (*R, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	res := new(R)
	if err := json.Unmarshal(b, res); err != nil {
		return nil, fmt.Errorf("decode %s: %w", path, err)
	}
	return res, nil
}

// describeExit says how a child ended: "exited with status 3", "was
// killed by a signal (segmentation fault)".
func describeExit(err error) string {
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
