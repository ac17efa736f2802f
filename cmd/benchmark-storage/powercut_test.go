package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/powercut"
	"github.com/tsbench/storage/workload/crash"
)

// Mutations of the test binary run as the command: envBrokenSync mounts
// its powercut file systems with fsync doing nothing (crash.BrokenSync),
// envSkipSync opens the crash check's writer's engine without its
// fsyncs (crash.SkipSync).
const (
	envBrokenSync = "BENCHMARK_STORAGE_TEST_BROKEN_SYNC"
	envSkipSync   = "BENCHMARK_STORAGE_TEST_SKIP_SYNC"
)

func init() {
	crash.BrokenSync = os.Getenv(envBrokenSync) == "1"
	crash.SkipSync = os.Getenv(envSkipSync) == "1"
}

// needPowercut skips a test of the power-loss check on pebble, which
// syncs what it acknowledges, where FUSE or pebble is missing.
func needPowercut(t *testing.T) {
	t.Helper()
	if err := powercut.Available(); err != nil {
		t.Skipf("the power-loss check needs FUSE: %v", err)
	}
	if !slices.Contains(engine.Names(), "pebble") {
		t.Skip("this build lacks pebble")
	}
}

// powercutCheck runs the power-loss check on pebble for cuts, and returns
// its result and the exit status.
func powercutCheck(t *testing.T, cuts string, args ...string) (*crash.Result, int) {
	t.Helper()
	needPowercut(t)
	parent := t.TempDir()
	args = append([]string{"-workload", "crash", "-fault", "powercut", "-engine", "pebble", "-kills", cuts, "-batch", "10",
		"-path", parent, "-format", "json"}, args...)
	code, stdout, stderr := runChildren(t, args...)
	var rep crash.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Results) != 1 || rep.Results[0].Crash == nil {
		t.Fatalf("status %d, not a report of one engine: %v\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	checkUntouched(t, parent)
	return rep.Results[0], code
}

// TestPowercutCheck cuts the power under pebble under sync batch: every
// acknowledged batch is there after each cut.
func TestPowercutCheck(t *testing.T) {
	res, code := powercutCheck(t, "3")
	c := res.Crash
	if code != exitOK || res.Error != "" || c.Kills != 3 || c.AcknowledgedBatches == 0 || c.LostBatches+c.TornBatches+int64(c.ReopenErrors) != 0 || c.LossAllowed {
		t.Errorf("status %d, error %q, crash %+v: want 3 cuts, nothing lost", code, res.Error, c)
	}
	if res.Config.Fault != crash.FaultPowercut || res.Options["sync"] != string(engine.SyncBatch) {
		t.Errorf("ran %+v with options %v, want a power cut under sync batch", res.Config, res.Options)
	}
}

// TestPowercutCheckSyncNone: under sync none the store must open after
// each cut and hold no torn batch, and lost batches do not fail the
// engine.
func TestPowercutCheckSyncNone(t *testing.T) {
	res, code := powercutCheck(t, "3", "-sync", "none")
	c := res.Crash
	if code != exitOK || res.Error != "" || c.Kills != 3 || c.TornBatches+int64(c.ReopenErrors) != 0 || !c.LossAllowed {
		t.Errorf("status %d, error %q, crash %+v: want 3 cuts, none torn, losses allowed", code, res.Error, c)
	}
}

// TestPowercutCheckBitesEngine: an engine that skips its fsyncs under
// sync batch loses acknowledged batches at a cut, and the check fails.
func TestPowercutCheckBitesEngine(t *testing.T) {
	t.Setenv(envSkipSync, "1")
	res, code := powercutCheck(t, "2")
	c := res.Crash
	if code != exitFailed || c.LostBatches == 0 || c.LossAllowed || !strings.Contains(crash.Failure(res), "lost") {
		t.Errorf("status %d, crash %+v: want lost batches failing the engine", code, c)
	}
}

// TestPowercutCheckBites: with the disk's fsync doing nothing, a cut
// drops what the engine synced, its store with it, and the check under
// sync batch must fail.
func TestPowercutCheckBites(t *testing.T) {
	t.Setenv(envBrokenSync, "1")
	res, code := powercutCheck(t, "2")
	c := res.Crash
	if code != exitFailed || c.LostBatches+int64(c.ReopenErrors) == 0 || crash.Failure(res) == "" {
		t.Errorf("status %d, crash %+v: want lost batches or failed reopens, and a failure", code, c)
	}
}

func TestFaultBadInput(t *testing.T) {
	for _, tc := range []refusal{
		{"fault without the crash check", []string{"-fault", "powercut"}, "-fault is not a flag of the time-series workload (benchmark-storage ts -h lists its flags) but of the crash check: benchmark-storage crash -fault ..."},
		{"unknown fault", []string{"-workload", "crash", "-fault", "flood"}, `-fault "flood": use kill, powercut, powercut-torn`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefused(t, tc.want, append([]string{"-path", t.TempDir()}, tc.args...)...)
		})
	}
}

// TestPowercutDetachesDeadMounts leaves in -path the dead mount of a
// killed server, as a killed run may: the next run detaches it.
func TestPowercutDetachesDeadMounts(t *testing.T) {
	needPowercut(t)
	parent := t.TempDir()
	old := filepath.Join(parent, "benchmark-storage-old", "pebble")
	mnt := filepath.Join(old, "mnt")
	t.Cleanup(func() { powercut.Cleanup(mnt) })
	fs, err := powercut.Mount(mnt, filepath.Join(old, "store"), powercut.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range measure.Children() { // the server is the only child
		syscall.Kill(pid, syscall.SIGKILL)
	}
	<-fs.Done()
	if _, err := os.Stat(mnt); !errors.Is(err, syscall.ENOTCONN) {
		t.Fatalf("stat of the killed server's mount: %v, want ENOTCONN", err)
	}
	runOK(t, "-workload", "crash", "-fault", "powercut", "-engine", "pebble", "-kills", "1", "-batch", "10", "-path", parent)
	if _, err := os.Stat(mnt); err != nil {
		t.Errorf("after the run: %v, want the dead mount detached", err)
	}
}
