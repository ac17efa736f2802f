package steady

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
)

// fileStart is the first timestamp of the test files: 2013-01-01, before
// points.Epoch, as a real file's may be.
const fileStart = int64(1_356_998_400) * 1e9

// writeFile writes text to name in a temporary directory and returns its
// path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lineProtocol is a file of hosts series (integers and floats in turn),
// a point each a second for rounds seconds, in time order.
func lineProtocol(hosts, rounds int) string {
	var b strings.Builder
	for r := range rounds {
		for h := range hosts {
			ts := fileStart + int64(r)*1e9
			if h%2 == 0 {
				fmt.Fprintf(&b, "cpu,host=h%d load=%di %d\n", h, r*h, ts)
			} else {
				fmt.Fprintf(&b, "cpu,host=h%d usage=%d.25 %d\n", h, r+h, ts)
			}
		}
	}
	return b.String()
}

// weatherCSV is a CSV of stations rows a minute apart for rounds
// minutes: two fields a station, so two series each.
func weatherCSV(stations, rounds int) string {
	var b strings.Builder
	b.WriteString("time,station|tag,temp,humid\n")
	for r := range rounds {
		for s := range stations {
			fmt.Fprintf(&b, "%s,S%d,%d.5,%d\n", time.Unix(0, fileStart).UTC().Add(time.Duration(r)*time.Minute).Format(time.RFC3339), s, r%40-s, 40+r%50)
		}
	}
	return b.String()
}

// fileConfig is smallConfig on the file at path, surveyed: its series,
// its own data time, and a retention window of a fifth of its span.
func fileConfig(t *testing.T, path string) Config {
	t.Helper()
	v := points.Values{Kind: points.Imported, File: path}
	sv, err := v.Survey()
	if err != nil {
		t.Fatal(err)
	}
	v.Import = &sv
	cfg := smallConfig()
	cfg.Values, cfg.Series = v, sv.Series
	cfg.Duration, cfg.Rate, cfg.Batch = 3*time.Second, float64(sv.Points), 20 // the file lasts a second
	cfg.Retention, cfg.Window = time.Duration(sv.Span/5), time.Duration(sv.Span/20)
	cfg.Mix = querymix.Mix{Last: 1, Recent: 1, Range: 1, Scan: 1, Multi: 1}
	return cfg
}

// TestRunFile runs a line-protocol file and a CSV by the delete and
// shards methods, with points out of order in their batches: the run
// ends at the file's end, retention follows its timestamps, and the
// reads and the final check find what the file and the run say.
func TestRunFile(t *testing.T) {
	for _, f := range []struct{ name, text string }{
		{"cpu.lp", lineProtocol(10, 200)},
		{"weather.csv", weatherCSV(5, 200)},
	} {
		for _, method := range []Method{MethodDelete, MethodShards} {
			t.Run(f.name+"/"+string(method), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				cfg := fileConfig(t, writeFile(t, f.name, f.text))
				cfg.Method, cfg.OutOfOrder = method, 0.3
				var db engine.Engine
				if method == MethodShards {
					cfg.Open = func(string) (engine.Engine, error) { return memory.New(), nil }
				} else {
					db = memory.New()
				}
				res, err := Run(db, dir, cfg)
				checkClean(t, res, err)
				// -rate and -duration schedule 6000: the file ends first.
				if res.Scheduled != 2000 {
					t.Errorf("scheduled %d points, want the file's 2000", res.Scheduled)
				}
				if res.SeriesIDs != cfg.Series {
					t.Errorf("%d series ids, want the file's %d", res.SeriesIDs, cfg.Series)
				}
			})
		}
	}
}

// TestRunFileCatchesLostDelete checks that the file's checks can fail:
// an engine whose DeleteRange does nothing keeps expired points, and one
// that changes values holds points that are not the file's.
func TestRunFileCatchesLostDelete(t *testing.T) {
	cfg := fileConfig(t, writeFile(t, "cpu.lp", lineProtocol(10, 200)))
	res, err := Run(noDelete{memory.New()}, t.TempDir(), cfg)
	if !errors.Is(err, ErrVerification) || res.Final == nil || res.Final.Expired == 0 {
		t.Fatalf("Run = %v, final %+v; want expired points found", err, res.Final)
	}
	res, err = Run(offByOne{memory.New()}, t.TempDir(), cfg)
	if !errors.Is(err, ErrVerification) || res.Final == nil || res.Final.Wrong == 0 {
		t.Fatalf("Run = %v, final %+v; want points not the file's found", err, res.Final)
	}
}

// offByOne stores every timestamp a nanosecond later: keys of the right
// series and order, values of the right encoding, which only the sums
// tell from the file's.
type offByOne struct{ *memory.DB }

func (o offByOne) NewBatch() engine.Batch { return offByOneBatch{o.DB.NewBatch()} }

type offByOneBatch struct{ engine.Batch }

func (b offByOneBatch) Put(k, v []byte) {
	k = append([]byte(nil), k...)
	k[15]++
	b.Batch.Put(k, v)
}

// TestFileRefused: what cannot run on a file is refused in one line
// naming the fix.
func TestFileRefused(t *testing.T) {
	cfg := fileConfig(t, writeFile(t, "cpu.lp", lineProtocol(10, 200)))
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Method = MethodTTL }, "use delete or shards"},
		{func(c *Config) { c.Method = MethodBucket }, "use delete or shards"},
		{func(c *Config) { c.Late = 0.1 }, "leave them out"},
		{func(c *Config) { c.Series = 3 }, "holds 10 series"},
		{func(c *Config) { c.Batch = 1500 }, "fewer than two batches"},
		{func(c *Config) { c.Retention = time.Hour }, "so that data expires"},
	} {
		c2 := cfg
		c.change(&c2)
		if _, err := Run(memory.New(), t.TempDir(), c2); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Run = %v, want one line naming %q", err, c.want)
		}
	}
	one := fileConfig(t, writeFile(t, "one.lp", fmt.Sprintf("cpu load=1i %d\n", fileStart)))
	one.Batch = 1
	if _, err := Run(memory.New(), t.TempDir(), one); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "holds a single point") {
		t.Errorf("Run on one point = %v, want it refused", err)
	}
	// A point far behind the latest before it could be written after
	// retention deleted its time.
	lines := strings.SplitAfter(lineProtocol(10, 200), "\n")
	lines[1500] = fmt.Sprintf("cpu,host=late load=1i %d\n", fileStart) + lines[1500]
	late := fileConfig(t, writeFile(t, "late.lp", strings.Join(lines, "")))
	if _, err := Run(memory.New(), t.TempDir(), late); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "sort the file by time") {
		t.Errorf("Run on a point far behind = %v, want it refused", err)
	}
}
