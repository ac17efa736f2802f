package mixed

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
	"github.com/tsbench/storage/workload/suite"
)

// writeImport writes text to name in a temporary directory and returns
// its path.
func writeImport(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// importLines is line protocol of 1,000 lines of each of three hosts, 10
// s apart: host a's usage (float) and processes (integer), b's usage, c's
// memory (integer).
func importLines() string {
	var b strings.Builder
	for i := range 1000 {
		ts := 1_700_000_000_000_000_000 + int64(i)*10e9
		fmt.Fprintf(&b, "cpu,host=a usage=%d.25,procs=%di %d\ncpu,host=b usage=%d.5 %d\nmem,host=c used=%di %d\n",
			i%97, i%13, ts, i%89, ts, 1000+i*7, ts)
	}
	return b.String()
}

// importCSV is a CSV of two stations' hourly temperature and wind over
// 1,000 hours, a wind cell empty now and then.
func importCSV() string {
	var b strings.Builder
	b.WriteString("time,station|tag,temp,wind\n")
	for i := range 1000 {
		at := time.Date(2013, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
		for _, st := range []string{"EWR", "JFK"} {
			wind := ""
			if i%7 != 0 {
				wind = fmt.Sprint(i % 31)
			}
			fmt.Fprintf(&b, "%s,%s,%d.5,%s\n", at, st, i%40-10, wind)
		}
	}
	return b.String()
}

// importedConfig is a run of the file at path in encoding enc, all of
// it preloaded but its last 100 points: writers write those, then the
// file again.
func importedConfig(t *testing.T, path, enc string, window time.Duration) Config {
	t.Helper()
	v := points.Values{Kind: points.Imported, Encoding: enc, File: path}
	sv, err := v.Survey()
	if err != nil {
		t.Fatal(err)
	}
	v.Import = &sv
	return Config{
		Duration: 400 * time.Millisecond, Writers: 2, Readers: 2,
		Series: sv.Series, Batch: 16, Points: sv.Points - 100, Rate: 20_000, Seed: 1, Values: v,
		Mix: querymix.Mix{Last: 1, Recent: 1, Range: 1, Scan: 1, Multi: 1}, Window: window,
	}
}

// TestRunImported: a file of line protocol and a CSV run every query
// kind, every read checked clean, and the final check finds every point
// of the preload and of the writers, who wrote past the file's end.
func TestRunImported(t *testing.T) {
	for _, c := range []struct {
		name, text, enc string
		window          time.Duration
		series          int64
	}{
		{"cpu.lp", importLines(), points.Protobuf, 5 * time.Minute, 4},
		{"weather.csv", importCSV(), points.Float64, 5 * time.Hour, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := importedConfig(t, writeImport(t, c.name, c.text), c.enc, c.window)
			if cfg.Series != c.series {
				t.Fatalf("%d series, want %d", cfg.Series, c.series)
			}
			res, err := Run(memory.New(), t.TempDir(), cfg)
			checkClean(t, res, err)
			if w := res.Operation(KindWrite); w.Count <= 100 {
				t.Errorf("writers wrote %d points, not past the file's last 100", w.Count)
			}
			if res.Config.MultiSeries != int(c.series) {
				t.Errorf("multi over %d series, want the file's %d", res.Config.MultiSeries, c.series)
			}
		})
	}
}

// recoding stores every value as another of the same encoding, the
// int64 42 in protobuf: only a point's digest tells.
type recoding struct{ *memory.DB }

func (r recoding) NewBatch() engine.Batch { return recodingBatch{r.DB.NewBatch()} }

type recodingBatch struct{ engine.Batch }

func (b recodingBatch) Put(k, _ []byte) { b.Batch.Put(k, points.AppendValue(nil, 42)) }

// TestRunImportedDetects: an engine that drops acknowledged batches, or
// stores other values of the right encoding (which only the digests
// tell), fails the run.
func TestRunImportedDetects(t *testing.T) {
	var b strings.Builder
	for i := range 500 {
		for h := range 4 {
			fmt.Fprintf(&b, "mem,host=h%d used=%di %d\n", h, 1000+i*7+h, 1_700_000_000_000_000_000+int64(i)*10e9)
		}
	}
	path := writeImport(t, "mem.lp", b.String())
	for _, corrupt := range []bool{false, true} {
		cfg := importedConfig(t, path, points.Protobuf, time.Minute)
		cfg.Writers, cfg.Readers, cfg.Duration, cfg.Mix = 1, 1, 200*time.Millisecond, querymix.Mix{Last: 1, Scan: 1}
		var db engine.Engine = &lossy{DB: memory.New()}
		if corrupt {
			db = recoding{memory.New()}
		}
		res, err := Run(db, t.TempDir(), cfg)
		if !errors.Is(err, ErrVerification) {
			t.Fatalf("corrupt %v: Run: %v", corrupt, err)
		}
		f := res.Final
		switch {
		case !corrupt && f.Missing == 0:
			t.Errorf("lost writes: final check %+v", f)
		case corrupt && f.Wrong != cfg.Series:
			t.Errorf("corrupt values: final check %+v, want every series' sum wrong", f)
		}
		if corrupt {
			for _, kind := range []string{querymix.KindLast, querymix.KindScan} {
				if op := res.Operation(kind); op == nil || op.Verify.Wrong == 0 {
					t.Errorf("%s found no corrupt value: %+v", kind, op)
				}
			}
		}
	}
}

// TestImportedRefused: a file mixed cannot run is refused in one line
// naming the fix, before anything is created.
func TestImportedRefused(t *testing.T) {
	path := writeImport(t, "cpu.lp", importLines())
	bad := writeImport(t, "bad.lp", "cpu v=1 10\ncpu v=2i 20\n")
	for _, c := range []struct {
		file    string
		writers int
		points  int64
		want    string
	}{
		{path, 5, 0, "has 4 series, fewer than the 5 writers, each of which owns a share of them: use -writers 4 or fewer"},
		{path, 1, 5000, "-points 5000 is more than the 4000 points of -values " + path},
		{bad, 1, 0, "bad.lp:2: series cpu v is an integer here but a float on line 1"},
	} {
		s := Config{Duration: time.Second, Writers: c.writers, Readers: 1, Mix: querymix.DefaultMix, Window: querymix.DefaultWindow}
		common := suite.Common{Points: c.points, Series: 1000, Batch: 100, Values: points.Values{Kind: points.Imported, File: c.file}}
		err := mixedSuite{}.Configure(&s, &common, func(name string) bool { return name == "points" && c.points > 0 })
		if !errors.Is(err, suite.ErrInvalid) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%d writers, %d points of %s: %v, want one line with %q", c.writers, c.points, c.file, err, c.want)
		}
	}
	cfg := importedConfig(t, path, points.Protobuf, time.Minute)
	cfg.Writers = 5
	dir := t.TempDir()
	if res, err := Run(memory.New(), dir, cfg); res != nil || !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("Run with more writers than series: %v, %v", res, err)
	}
	if made, err := os.ReadDir(dir); err != nil || len(made) > 0 {
		t.Errorf("created %v (%v)", made, err)
	}
}
