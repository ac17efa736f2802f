package timeseries

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

// importedCfg is a run of a file of line protocol written in the test:
// 4 hosts of which one reports late, so the file is not in time order,
// integer and float fields, and points at the cut-off time before it.
func importedCfg(t *testing.T, enc string) Config {
	t.Helper()
	var sb strings.Builder
	for k := range 5 {
		fmt.Fprintf(&sb, "disk,host=d free=%di %d\n", 100-k, 1_700_000_000_000_000_000+int64(k)*1e9)
	}
	for i := range 100 {
		ts := 1_700_000_000_000_000_000 + int64(i)*1e9
		fmt.Fprintf(&sb, "cpu,host=a usage=%d.25,procs=%di %d\n", i, i*3, ts)
		fmt.Fprintf(&sb, "cpu,host=b usage=%d.5 %d\n", -i, ts)
		if i%10 == 9 { // host c sends its last ten points at once
			for j := i - 9; j <= i; j++ {
				fmt.Fprintf(&sb, "mem,host=c used=%di %d\n", j<<20, 1_700_000_000_000_000_000+int64(j)*1e9)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "cpu.lp")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	v := points.Values{Kind: points.Imported, Encoding: enc, File: p}
	s, err := v.Survey()
	if err != nil {
		t.Fatal(err)
	}
	v.Import = &s
	return Config{Points: s.Points, Series: s.Series, Batch: 64, Seed: 1, Values: v}
}

// TestRunImported: a file's points run every step with every point
// checked, the file's counts in place of -points and -series, and the
// store ends holding the points kept and those written again.
func TestRunImported(t *testing.T) {
	for _, enc := range []string{points.Protobuf, points.Float64} {
		t.Run(enc, func(t *testing.T) {
			cfg := importedCfg(t, enc)
			im := cfg.Values.Import
			if im.Points != 405 || im.Series != 5 || im.Deleted == 0 || im.Deleted == im.Points/2 {
				t.Fatalf("survey %+v: want 405 points over 5 series, and a delete that is not half of them", im)
			}
			db := memory.New()
			defer db.Close()
			res, err := Run(db, t.TempDir(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			n, h, d := cfg.Points, cfg.Points/2, im.Deleted
			for name, want := range map[string]int64{StepWrite: n, StepQuery: n, StepDelete: d, StepCompact: n - d, StepQueryAfterDelete: n - d, StepWriteMore: h} {
				st := res.Step(name)
				if st == nil || st.Points != want || st.Error != "" {
					t.Fatalf("%s: %+v, want %d points", name, st, want)
				}
				if v := st.Verify; v != nil && (v.Read != want || v.Expected != want || !v.OK()) {
					t.Errorf("%s: Verify = %+v", name, v)
				}
			}
			if l := Label(StepDelete, cfg); l != fmt.Sprintf("Delete %d values", d) {
				t.Errorf("delete step labelled %q", l)
			}
			it, err := db.NewIterator(engine.IterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			var held int64
			for ok := it.First(); ok; ok = it.Next() {
				if _, _, seq, err := tskey.ParseKey(it.Key()); err != nil || seq == 0 || seq > uint64(n+h) {
					t.Fatalf("key %x: seq %d, %v", it.Key(), seq, err)
				}
				held++
			}
			if held != n-d+h {
				t.Errorf("store holds %d points, want %d", held, n-d+h)
			}
			text := strings.Join(strings.Fields(Report{Results: []*Result{res}}.Page().Text()), " ")
			if !strings.Contains(text, "405 points over 5 series (cpu.lp's, in place of -points and -series)") || !strings.Contains(text, "values of cpu.lp, "+enc) {
				t.Errorf("report's first lines do not say where the points came from:\n%s", text)
			}
		})
	}
}

// TestRunImportedDetects: a changed value, a lost write and an ignored
// delete of a file's points each fail the run's checks.
func TestRunImportedDetects(t *testing.T) {
	cfg := importedCfg(t, points.Protobuf)
	n, d := cfg.Points, cfg.Values.Import.Deleted
	// Point 404, the file's last, survives the delete.
	res, err := runFaulty(t, &faulty{flipValue: 405}, cfg)
	if !errors.Is(err, ErrVerification) {
		t.Fatalf("a changed value: %v, want ErrVerification", err)
	}
	for _, name := range []string{StepQuery, StepQueryAfterDelete} {
		if v := res.Step(name).Verify; v.Wrong != 1 || v.Missing != 0 || v.Unexpected != 0 || !strings.Contains(v.First, "mem,host=c used") {
			t.Errorf("a changed value: %s: Verify = %+v", name, v)
		}
	}
	res, err = runFaulty(t, &faulty{dropPut: 405}, cfg)
	if v := res.Step(StepQuery).Verify; !errors.Is(err, ErrVerification) || v.Missing != 1 || v.Read != n-1 {
		t.Errorf("a lost write: %v, query Verify = %+v", err, v)
	}
	if st := res.Step(StepWrite); !strings.Contains(st.Error, "seq 405") {
		t.Errorf("a lost write: the spot check missed it: %q", st.Error)
	}
	res, err = runFaulty(t, &faulty{ignoreDel: true}, cfg)
	if v := res.Step(StepQueryAfterDelete).Verify; !errors.Is(err, ErrVerification) || v.Unexpected != d || v.Read != n {
		t.Errorf("an ignored delete: %v, Verify = %+v, want %d unexpected", err, v, d)
	}
}
