package crash

import (
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report/reporttest"
	"github.com/tsbench/storage/workload/harness"
)

// syntheticReport is a fixed report, not a real run: an engine that kept
// everything, one that lost acknowledged batches, and one that failed to
// reopen once.
func syntheticReport() Report {
	cfg := Config{Kills: DefaultKills, Batch: DefaultBatch, ValueSize: DefaultValueSize, Seed: 1, Window: DefaultWindow,
		Fault: FaultKill, CutBatches: DefaultCutBatches}
	result := func(name string, s Stats) *Result {
		s.Kills = cfg.Kills
		return &Result{Header: harness.Header{Engine: name, Version: "1.0", Options: map[string]any{"sync": "batch"}}, Config: cfg, Crash: &s}
	}
	rocks := result("rocksdb", Stats{AcknowledgedBatches: 5120, RecoveryP50: 41 * time.Millisecond, RecoveryMax: 95 * time.Millisecond, IntegrityCheck: true})
	lossy := result("lossy", Stats{AcknowledgedBatches: 4800, LostBatches: 3, RecoveryP50: 3 * time.Millisecond, RecoveryMax: 9 * time.Millisecond,
		FirstProblem: "round 4: acknowledged batch 1201 lost (highest acknowledged 1203)"})
	rocks.Crash.WriterMemory = &measure.MemoryPeaks{Private: 92 << 20, File: 31 << 20, Go: 12 << 20, Samples: 410}
	lossy.Crash.WriterMemory = &measure.MemoryPeaks{Private: 40 << 20, File: 180 << 20, Shared: 1 << 20, Go: 9 << 20, Samples: 380}
	flaky := result("flaky", Stats{AcknowledgedBatches: 3900, ReopenErrors: 1, RecoveryP50: 12 * time.Millisecond, RecoveryMax: 30 * time.Millisecond,
		FirstProblem: "round 7: reopen: open: corrupt log"})
	return Report{
		RunID: "20261123T120000Z-0a1b2c",
		Env: harness.Environment{
			CPUModel: "AMD EPYC", Cores: 2, MemoryBytes: 24 << 30, Kernel: "6.18.0", OS: "linux", Arch: "amd64",
			GoVersion: "go1.26.8", DataPath: "/data/bench", Filesystem: "ext4",
			CommandLine: []string{"benchmark-storage", "-workload", "crash", "-engine", "rocksdb,lossy,flaky"},
			Seed:        1, Sync: engine.SyncBatch,
			EngineVersions: map[string]string{"rocksdb": "1.0", "lossy": "1.0", "flaky": "1.0"},
			Start:          time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC),
		},
		Results: []*Result{rocks, lossy, flaky},
	}
}

func TestReportGolden(t *testing.T) {
	reporttest.Formats(t, "report", syntheticReport())
}

func TestReportJSONRoundTrip(t *testing.T) {
	reporttest.JSONRoundTrip(t, syntheticReport())
}

// TestMemberReportGolden pins the report of -kill member: its own
// introduction and fault row.
func TestMemberReportGolden(t *testing.T) {
	r := syntheticReport()
	r.Results = r.Results[:2]
	for _, res := range r.Results {
		c := *res
		c.Config.Kill = KillMember
		*res = c
	}
	reporttest.Formats(t, "member", r)
}
