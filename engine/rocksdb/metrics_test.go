package rocksdb

import (
	"testing"
	"time"
)

// The texts RocksDB 11 gives for the properties Metrics reads.
const (
	cfStalls = "Write Stall (count): cf-l0-file-count-limit-delays-with-ongoing-compaction: 0, cf-l0-file-count-limit-stops-with-ongoing-compaction: 0, l0-file-count-limit-delays: 0, l0-file-count-limit-stops: 0, memtable-limit-delays: 2, memtable-limit-stops: 16, pending-compaction-bytes-delays: 0, pending-compaction-bytes-stops: 0, total-delays: 2, total-stops: 16\n"
	dbStats  = `
** DB Stats **
Uptime(secs): 0.7 total, 0.6 interval
Cumulative writes: 20K writes, 20K keys, 20K commit groups, 1.0 writes per commit group, ingest: 0.02 GB, 29.30 MB/s
Cumulative WAL: 20K writes, 0 syncs, 20000.00 writes per sync, written: 0.02 GB, 29.30 MB/s
Cumulative stall: 01:02:3.195 H:M:S, 29.2 percent
Interval stall: 00:00:0.195 H:M:S, 30.3 percent
Write Stall (count): write-buffer-manager-limit-stops: 3
`
)

func TestStallCounts(t *testing.T) {
	if n, err := stallCounts(cfStalls, []string{"total-delays", "total-stops"}); err != nil || n != 18 {
		t.Errorf("cf stalls = %d, %v; want 18", n, err)
	}
	if n, err := stallCounts(dbStats, []string{"write-buffer-manager-limit-stops"}); err != nil || n != 3 {
		t.Errorf("db stalls = %d, %v; want 3", n, err)
	}
	if _, err := stallCounts(cfStalls, []string{"total-waits"}); err == nil {
		t.Error("a missing count gave no error")
	}
}

func TestStallTime(t *testing.T) {
	want := time.Hour + 2*time.Minute + 3195*time.Millisecond
	if d, err := stallTime(dbStats); err != nil || d != int64(want) {
		t.Errorf("stallTime = %v, %v; want %v", time.Duration(d), err, want)
	}
	for _, bad := range []string{"", "Cumulative stall: 0.195 H:M:S", "Cumulative stall: 00:0.5:1 H:M:S"} {
		if _, err := stallTime(bad); err == nil {
			t.Errorf("stallTime(%q) gave no error", bad)
		}
	}
}
