package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	influx "github.com/influxdata/influxdb1-client/v2"
)

// TestInfluxClient drives the database with InfluxDB 1.x's own Go client
// (github.com/influxdata/influxdb1-client/v2, InfluxData's 1.x client module), unchanged: Ping, a batch of
// points written at second precision, and queries of one series raw and
// grouped by time, with epoch and without, each value checked; then what
// the server refuses comes back as the client's error, short.
func TestInfluxClient(t *testing.T) {
	in := start(t, "-engine", "pebble", "-dir", t.TempDir())
	c, err := influx.NewHTTPClient(influx.HTTPConfig{Addr: in.base, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, version, err := c.Ping(time.Second); err != nil || version != influxVersion {
		t.Fatalf("Ping: version %q, %v", version, err)
	}

	bp, err := influx.NewBatchPoints(influx.BatchPointsConfig{Database: "db0", Precision: "s"})
	if err != nil {
		t.Fatal(err)
	}
	const t0 = 1_700_000_000 // seconds
	for i := range 120 {
		for _, host := range []string{"a", "b"} {
			p, err := influx.NewPoint("cpu", map[string]string{"host": host, "region": "eu"},
				map[string]any{"usage": float64(i) / 2, "procs": int64(i)}, time.Unix(t0+int64(i)*30, 0))
			if err != nil {
				t.Fatal(err)
			}
			bp.AddPoint(p)
		}
	}
	if err := c.Write(bp); err != nil {
		t.Fatalf("Write: %v", err)
	}

	query := func(q, epoch string) [][]any {
		t.Helper()
		res, err := c.Query(influx.NewQuery(q, "db0", epoch))
		if err == nil {
			err = res.Error()
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(res.Results) != 1 || len(res.Results[0].Series) != 1 {
			t.Fatalf("%s: %+v", q, res.Results)
		}
		return res.Results[0].Series[0].Values
	}
	num := func(v any) float64 {
		f, err := v.(json.Number).Float64()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// Raw, at second precision: the 120 points of host a, each value.
	raw := query(`SELECT usage FROM cpu WHERE host = 'a' AND time >= 1700000000s`, "s")
	if len(raw) != 120 {
		t.Fatalf("raw: %d rows", len(raw))
	}
	for i, row := range raw {
		if num(row[0]) != float64(t0+i*30) || num(row[1]) != float64(i)/2 {
			t.Fatalf("raw row %d: %v", i, row)
		}
	}
	// Grouped by 10 minutes, buckets aligned on the epoch as InfluxDB
	// aligns them, from 22:20:00 (t0 is 22:13:20), RFC 3339 times: each
	// bucket's figures against those of the points written into it.
	const from = t0/600*600 + 600
	for _, fn := range []string{"mean", "count", "max", "min"} {
		rows := query(`SELECT `+fn+`("usage") FROM "cpu" WHERE "host" = 'b' AND region = 'eu' AND time >= '2023-11-14T22:20:00Z' AND time < now() GROUP BY time(10m)`, "")
		if len(rows) != 6 {
			t.Fatalf("%s: %d buckets: %v", fn, len(rows), rows)
		}
		for b, row := range rows {
			start := int64(from + b*600)
			var vals []float64
			for i := range 120 {
				if at := int64(t0 + i*30); at >= start && at < start+600 {
					vals = append(vals, float64(i)/2)
				}
			}
			want := map[string]float64{"count": float64(len(vals)), "max": slices.Max(vals), "min": slices.Min(vals)}
			for _, v := range vals {
				want["mean"] += v / float64(len(vals))
			}
			at, err := time.Parse(time.RFC3339, row[0].(string))
			if err != nil || at.Unix() != start || math.Abs(num(row[1])-want[fn]) > 1e-9 {
				t.Errorf("%s bucket %d: %v, want %v at %v", fn, b, row, want[fn], time.Unix(start, 0).UTC())
			}
		}
	}
	// An integer field, and a time range cut at both ends.
	ints := query(`SELECT procs FROM cpu WHERE host='a' AND region='eu' AND time > 1700000000s AND time <= 1700000090s`, "ms")
	if len(ints) != 3 || num(ints[0][1]) != 1 || num(ints[2][1]) != 3 || num(ints[0][0]) != (t0+30)*1000 {
		t.Errorf("procs: %v", ints)
	}
	// No such series: no rows, no error.
	if res, err := c.Query(influx.NewQuery(`SELECT usage FROM cpu WHERE host = 'z'`, "db0", "")); err != nil || res.Error() != nil || len(res.Results[0].Series) != 0 {
		t.Errorf("no series: %+v %v", res, err)
	}

	// Refused, with the server's error as the client's, short.
	for q, want := range map[string]string{
		`SELECT usage FROM cpu`:                          "matches 2 series",
		`SELECT median(usage) FROM cpu WHERE host = 'a'`: "unknown function median",
		`DROP DATABASE db0`:                              "not a SELECT",
		`SELECT nosuch(usage) FROM cpu WHERE host = '` + strings.Repeat("x", 1<<20) + `'`: "bytes more",
	} {
		res, err := c.Query(influx.NewQuery(q, "db0", ""))
		if err == nil && res != nil {
			err = res.Error()
		}
		if err == nil || !strings.Contains(err.Error(), want) || len(err.Error()) > 500 {
			t.Errorf("%.60s: %v, want an error naming %q, short", q, err, want)
		}
	}
}

// TestShortErrors: a request holding a 15 MiB tag value (200 KiB in a
// URL, under the server's header limit) is refused with an error quoting
// at most 100 bytes of it, not the whole value.
func TestShortErrors(t *testing.T) {
	in := start(t, "-engine", "pebble", "-dir", t.TempDir())
	huge, long := strings.Repeat("x", 15<<20), strings.Repeat("y", 200<<10)
	for _, c := range []struct {
		method, path string
		params       url.Values
		body         string
		status       int
	}{
		{"POST", "/write", nil, "cpu,host=" + huge + ` usage="text"`, http.StatusBadRequest},
		{"GET", "/query", url.Values{"series": {"cpu,host=" + long + " usage"}}, "", http.StatusNotFound},
		{"GET", "/query", url.Values{"series": {"cpu usage"}, "step": {long}}, "", http.StatusBadRequest},
		{"POST", "/write", url.Values{"precision": {long}}, "cpu usage=1", http.StatusBadRequest},
	} {
		status, body := in.do(c.method, c.path, c.params, c.body)
		if status != c.status || len(body) > 400 || !strings.Contains(string(body), "bytes more") {
			t.Errorf("%s %s: %d, %d bytes: %.200s", c.method, c.path, status, len(body), body)
		}
	}
}

// TestPortInUse: a -listen address in use is refused before the store is
// made, so no new directory is left behind.
func TestPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := filepath.Join(t.TempDir(), "db")
	err = run(context.Background(), []string{"-listen", ln.Addr().String(), "-engine", "pebble", "-dir", dir}, nil)
	if err == nil || !strings.Contains(err.Error(), "choose another -listen address") {
		t.Errorf("run on a port in use: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s was left behind: %v", dir, err)
	}
}

// TestRetentionLogged: each retention pass, the first at start, says in
// the log what it deleted.
func TestRetentionLogged(t *testing.T) {
	var buf safeBuffer
	log.SetOutput(&buf)
	defer log.SetOutput(os.Stderr)
	start(t, "-engine", "pebble", "-dir", t.TempDir(), "-retention", "1h", "-retention-interval", "1h")
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(buf.String(), "retention: deleted the points before "); {
		if time.Now().After(deadline) {
			t.Fatalf("no retention line in the log: %q", buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// safeBuffer is a bytes.Buffer the log and a test may use at once.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestQueryPrecision: a query with precision=s takes its start and end in
// seconds and answers in seconds, as a write with precision=s took them;
// without it, the numbers are nanoseconds.
func TestQueryPrecision(t *testing.T) {
	in := start(t, "-engine", "pebble", "-dir", t.TempDir())
	if status, body := in.do("POST", "/write", url.Values{"precision": {"s"}}, "m v=1 1700000000\nm v=2 1700000060\nm v=3 1700000120"); status != http.StatusOK {
		t.Fatalf("write: %d %s", status, body)
	}
	var res rawResult
	in.call("GET", "/query", url.Values{"series": {"m v"}, "start": {"1700000060"}, "precision": {"s"}}, "", &res)
	if len(res.Points) != 2 || res.Points[0].Time != 1700000060 || res.Start != 1700000060 {
		t.Errorf("precision s: %+v", res)
	}
	in.call("GET", "/query", url.Values{"series": {"m v"}, "start": {"1700000060"}}, "", &res)
	if len(res.Points) != 3 || res.Points[0].Time != 1700000000e9 {
		t.Errorf("nanoseconds: %+v", res)
	}
}
