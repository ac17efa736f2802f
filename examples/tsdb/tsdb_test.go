package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsbench/storage/engine/all"
)

// TestEndToEnd runs the database on loopback on each engine: writes over
// HTTP, raw and downsampled queries checked value by value, refused
// requests, retention, and a restart on the same directory.
func TestEndToEnd(t *testing.T) {
	for _, name := range []string{"pebble", "rocksdb", "lmdb", "bbolt"} {
		t.Run(name, func(t *testing.T) {
			if slices.Contains(all.Missing(), name) {
				t.Skipf("engine %s is a C library's, linked only with cgo, and this build has none (CGO_ENABLED=0)", name)
			}
			endToEnd(t, name)
		})
	}
}

// instance is one run of the database, served on loopback.
type instance struct {
	t    *testing.T
	base string
	stop func()
}

// start runs the database with args until stop (or the test's end).
func start(t *testing.T, args ...string) *instance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"-listen", "127.0.0.1:0"}, args...), func(a net.Addr) { addr <- a })
	}()
	in := &instance{t: t}
	select {
	case a := <-addr:
		in.base = "http://" + a.String()
	case err := <-done:
		cancel()
		t.Fatalf("run %v: %v", args, err)
	}
	// Cancelling ctx is what SIGINT and SIGTERM do in main.
	in.stop = sync.OnceFunc(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	t.Cleanup(in.stop)
	return in
}

// do sends a request and returns the status and body.
func (in *instance) do(method, path string, params url.Values, body string) (int, []byte) {
	in.t.Helper()
	u := in.base + path
	if params != nil {
		u += "?" + params.Encode()
	}
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		in.t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		in.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		in.t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		in.t.Errorf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	return resp.StatusCode, b
}

// call sends a request that must answer 200, and decodes its JSON into v.
func (in *instance) call(method, path string, params url.Values, body string, v any) {
	in.t.Helper()
	status, b := in.do(method, path, params, body)
	if status != http.StatusOK {
		in.t.Fatalf("%s %s %v: status %d: %s", method, path, params, status, b)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		in.t.Fatalf("%s %s: %v in %s", method, path, err, b)
	}
}

// refuse sends a request that must fail with status and an error naming
// the problem (containing want).
func (in *instance) refuse(method, path string, params url.Values, body string, status int, want string) {
	in.t.Helper()
	got, b := in.do(method, path, params, body)
	var e struct{ Error string }
	if err := json.Unmarshal(b, &e); err != nil || got != status || !strings.Contains(e.Error, want) {
		in.t.Errorf("%s %s %v: status %d, body %s; want status %d and an error containing %q", method, path, params, got, b, status, want)
	}
}

// wantSeries is what the test wrote to one series, in time order.
type wantSeries struct {
	name   string
	float  bool
	ts     []uint64
	ints   []int64
	floats []float64
}

func (w *wantSeries) add(ts uint64, i int64, f float64) {
	w.ts, w.ints, w.floats = append(w.ts, ts), append(w.ints, i), append(w.floats, f)
}

// expire drops the points before cutoff.
func (w *wantSeries) expire(before uint64) {
	n, _ := slices.BinarySearch(w.ts, before)
	w.ts, w.ints, w.floats = w.ts[n:], w.ints[n:], w.floats[n:]
}

func (w *wantSeries) typ() string {
	if w.float {
		return "float"
	}
	return "integer"
}

// equal reports whether n is the value of point j.
func (w *wantSeries) equal(n json.Number, j int) bool {
	if w.float {
		f, err := n.Float64()
		return err == nil && f == w.floats[j]
	}
	i, err := n.Int64()
	return err == nil && i == w.ints[j]
}

func (w *wantSeries) value(j int) float64 {
	if w.float {
		return w.floats[j]
	}
	return float64(w.ints[j])
}

type rawResponse struct {
	Series string
	ID     uint64
	Type   string
	Points []struct {
		Time  uint64
		Value json.Number
	}
}

type downsampledResponse struct {
	Series  string
	Type    string
	Step    uint64
	Buckets []struct {
		Time     uint64
		Count    int64
		Min, Max json.Number
		Mean     float64
	}
}

// checkRaw queries w's points with from <= time < to (0 for no bound) and
// checks every one.
func checkRaw(in *instance, w *wantSeries, from, to uint64) {
	in.t.Helper()
	p := url.Values{"series": {w.name}}
	if from > 0 {
		p.Set("start", fmt.Sprint(from))
	}
	if to > 0 {
		p.Set("end", fmt.Sprint(to))
	} else {
		to = math.MaxUint64
	}
	var got rawResponse
	in.call("GET", "/query", p, "", &got)
	if got.Series != w.name || got.Type != w.typ() {
		in.t.Errorf("query %v: series %q of type %q, want %q of type %q", p, got.Series, got.Type, w.name, w.typ())
	}
	var j, n int
	for j = range w.ts {
		if w.ts[j] < from || w.ts[j] >= to {
			continue
		}
		if n >= len(got.Points) {
			in.t.Errorf("query %v: %d points, want more", p, len(got.Points))
			return
		}
		g := got.Points[n]
		if g.Time != w.ts[j] || !w.equal(g.Value, j) {
			in.t.Errorf("query %v: point %d is (%d, %s), want (%d, %v)", p, n, g.Time, g.Value, w.ts[j], w.value(j))
		}
		n++
	}
	if n != len(got.Points) {
		in.t.Errorf("query %v: %d points, want %d", p, len(got.Points), n)
	}
}

// checkDownsampled queries w in buckets of step from start to end and
// checks each bucket against the points the test wrote.
func checkDownsampled(in *instance, w *wantSeries, from, to uint64, step time.Duration) {
	in.t.Helper()
	p := url.Values{"series": {w.name}, "start": {fmt.Sprint(from)}, "end": {fmt.Sprint(to)}, "step": {step.String()}}
	var got downsampledResponse
	in.call("GET", "/query", p, "", &got)
	if got.Series != w.name || got.Type != w.typ() || got.Step != uint64(step) {
		in.t.Errorf("query %v: series %q type %q step %d", p, got.Series, got.Type, got.Step)
	}
	type agg struct {
		time          uint64
		count         int64
		min, max, sum int // indexes of min and max points
		mean          float64
	}
	var want []agg
	for j, ts := range w.ts {
		if ts < from || ts >= to {
			continue
		}
		b := from + (ts-from)/uint64(step)*uint64(step)
		if len(want) == 0 || want[len(want)-1].time != b {
			want = append(want, agg{time: b, min: j, max: j})
		}
		a := &want[len(want)-1]
		a.count++
		a.mean += (w.value(j) - a.mean) / float64(a.count)
		if w.value(j) < w.value(a.min) {
			a.min = j
		}
		if w.value(j) > w.value(a.max) {
			a.max = j
		}
	}
	if len(got.Buckets) != len(want) {
		in.t.Fatalf("query %v: %d buckets, want %d", p, len(got.Buckets), len(want))
	}
	for k, a := range want {
		g := got.Buckets[k]
		if g.Time != a.time || g.Count != a.count || !w.equal(g.Min, a.min) || !w.equal(g.Max, a.max) ||
			math.Abs(g.Mean-a.mean) > 1e-9*max(1, math.Abs(a.mean)) {
			in.t.Errorf("query %v: bucket %d is %+v, want time %d count %d min %v max %v mean %v",
				p, k, g, a.time, a.count, w.value(a.min), w.value(a.max), a.mean)
		}
	}
}

type seriesResponse struct {
	Series []struct {
		Name string
		ID   uint64
		Type string
	}
}

func endToEnd(t *testing.T, name string) {
	dir := t.TempDir()
	args := []string{"-engine", name, "-dir", dir, "-retention", "24h", "-retention-interval", "1h"}
	in := start(t, args...)

	// Two days of points every 10 minutes, up to an hour ago: the first
	// day's are past retention.
	const every = uint64(10 * time.Minute)
	first := uint64(time.Now().Add(-49 * time.Hour).Truncate(time.Hour).UnixNano())
	usage := &wantSeries{name: "cpu,host=a,region=eu usage", float: true}
	count := &wantSeries{name: "cpu,host=a,region=eu count"}
	used := &wantSeries{name: "mem,host=b used"}
	var lines [2]strings.Builder
	for i := range 288 {
		ts := first + uint64(i)*every
		// Whole numbers, halves and tenths: floats stored short and long.
		f := float64(i)/4 - 20 + float64(i%3)/10
		n := int64(i*i) - 1000
		usage.add(ts, 0, f)
		count.add(ts, n, 0)
		// One series, whichever order its tags come in.
		tags := "host=a,region=eu"
		if i%2 == 1 {
			tags = "region=eu,host=a"
		}
		fmt.Fprintf(&lines[i/144], "cpu,%s usage=%v,count=%di %d\n", tags, f, n, ts)
	}
	var res writeResult
	in.call("POST", "/write", nil, lines[0].String(), &res)
	if res != (writeResult{Points: 288, Created: 2}) {
		t.Errorf("first write: %+v, want 288 points, 2 series created", res)
	}
	in.call("POST", "/write", nil, lines[1].String(), &res)
	if res != (writeResult{Points: 288, Created: 0}) {
		t.Errorf("second write: %+v, want 288 points, no series created", res)
	}
	// Integers at their limits, timestamps in seconds.
	var mem strings.Builder
	for j, v := range []int64{math.MaxInt64, math.MinInt64, 0, -1, 1 << 40} {
		s := first/1e9 + uint64(j)*3600*12
		used.add(s*1e9, v, 0)
		fmt.Fprintf(&mem, "mem,host=b used=%di %d\n", v, s)
	}
	in.call("POST", "/write", url.Values{"precision": {"s"}}, mem.String(), &res)

	// A point written again at the same time replaces the first.
	usage.floats[3] = 1e300
	in.call("POST", "/write", nil, fmt.Sprintf("cpu,host=a,region=eu usage=1e300 %d", usage.ts[3]), &res)

	all := []*wantSeries{usage, count, used}
	for _, w := range all {
		checkRaw(in, w, 0, 0)
	}
	// Bounds: start inclusive, end exclusive, on points' own times.
	checkRaw(in, usage, usage.ts[10], usage.ts[20])
	checkDownsampled(in, usage, first+uint64(35*time.Minute), first+uint64(40*time.Hour), time.Hour)
	checkDownsampled(in, count, first, first+uint64(48*time.Hour), 3*time.Hour)
	checkDownsampled(in, used, first, first+uint64(72*time.Hour), 24*time.Hour)

	refusals(in, usage)

	// Retention on demand: every point before the cutoff goes, the rest stay.
	var ret retentionResult
	in.call("POST", "/retention", nil, "", &ret)
	if ret.Series != 3 {
		t.Errorf("retention went through %d series, want 3", ret.Series)
	}
	if now := uint64(time.Now().UnixNano()); ret.Before < now-uint64(24*time.Hour)-uint64(time.Minute) || ret.Before > now-uint64(24*time.Hour) {
		t.Errorf("retention cutoff %d, want about 24h before %d", ret.Before, now)
	}
	for _, w := range all {
		n := len(w.ts)
		w.expire(ret.Before)
		if len(w.ts) == 0 || len(w.ts) == n {
			t.Fatalf("series %s: retention kept %d of %d points; the test wants some of both", w.name, len(w.ts), n)
		}
		checkRaw(in, w, 0, 0)
	}
	var index seriesResponse
	in.call("GET", "/series", nil, "", &index)
	in.stop()

	// The data and the index survive a restart.
	in = start(t, args...)
	var again seriesResponse
	in.call("GET", "/series", nil, "", &again)
	if len(index.Series) != 3 || fmt.Sprint(again) != fmt.Sprint(index) {
		t.Errorf("series after restart: %+v, before: %+v", again, index)
	}
	for _, w := range all {
		checkRaw(in, w, 0, 0)
	}
	checkDownsampled(in, usage, first, first+uint64(49*time.Hour), 2*time.Hour)
	// Types survive too, and a new series takes the next id.
	in.refuse("POST", "/write", nil, "cpu,host=a,region=eu usage=1i", http.StatusBadRequest, "holds float values, not integer")
	in.call("POST", "/write", nil, "disk,host=a free=1.5", &res)
	in.call("GET", "/series", nil, "", &again)
	if i := slices.IndexFunc(again.Series, func(s struct {
		Name string
		ID   uint64
		Type string
	}) bool {
		return s.Name == "disk,host=a free"
	}); i < 0 || again.Series[i].ID != 4 || again.Series[i].Type != "float" {
		t.Errorf("series after a write after restart: %+v, want disk,host=a free with id 4", again.Series)
	}
	in.stop()
}

// refusals checks requests the database must refuse, and that a refused
// write stored nothing.
func refusals(in *instance, usage *wantSeries) {
	in.t.Helper()
	ts := usage.ts[5]
	// All or nothing: the first line is good, the second is not.
	in.refuse("POST", "/write", nil, fmt.Sprintf("new,host=z v=1 %d\ncpu,host=a,region=eu usage=\"high\" %d", ts, ts),
		http.StatusBadRequest, `string values are not stored`)
	in.refuse("POST", "/write", nil, fmt.Sprintf("cpu,host=a,region=eu usage=99 %d\ncpu,host=a,region=eu usage=1i %d", ts, ts),
		http.StatusBadRequest, `holds float values, not integer`)
	in.refuse("POST", "/write", nil, "cpu,host=a usage=1\ncpu,host=a usage", http.StatusBadRequest, "line 2")
	in.refuse("POST", "/write", nil, "cpu,host=a v=1u", http.StatusBadRequest, "uint values are not stored")
	in.refuse("POST", "/write", nil, "cpu,host=a,host=b usage=1", http.StatusBadRequest, `tag "host" given twice`)
	in.refuse("POST", "/write", nil, "cpu usage=1 -5", http.StatusBadRequest, "before 1970")
	in.refuse("POST", "/write", nil, "\n", http.StatusBadRequest, "no points")
	in.refuse("POST", "/write", url.Values{"precision": {"h"}}, "cpu usage=1", http.StatusBadRequest, `precision "h"`)
	in.refuse("POST", "/write", nil, "x,name="+strings.Repeat("n", 600)+" v=1", http.StatusBadRequest, "too long")
	in.refuse("GET", "/write", nil, "", http.StatusMethodNotAllowed, "use POST")
	in.refuse("GET", "/query", url.Values{"series": {"cpu,host=a usage"}}, "", http.StatusNotFound, `series "cpu,host=a usage"`)
	in.refuse("GET", "/query", url.Values{}, "", http.StatusBadRequest, "missing parameter series")
	in.refuse("GET", "/query", url.Values{"series": {"cpu,host=a"}}, "", http.StatusBadRequest, "is not")
	q := func(k, v string) url.Values { return url.Values{"series": {usage.name}, k: {v}} }
	in.refuse("GET", "/query", q("step", "0s"), "", http.StatusBadRequest, "step")
	in.refuse("GET", "/query", q("start", "yesterday"), "", http.StatusBadRequest, "start")
	in.refuse("GET", "/query", q("stpe", "1h"), "", http.StatusBadRequest, `unknown parameter "stpe"`)
	in.refuse("GET", "/query", url.Values{"series": {usage.name}, "start": {"20"}, "end": {"10"}}, "", http.StatusBadRequest, "not before end")
	in.refuse("GET", "/nowhere", nil, "", http.StatusNotFound, "/nowhere")

	var got seriesResponse
	in.call("GET", "/series", nil, "", &got)
	if len(got.Series) != 3 {
		in.t.Errorf("series after refused writes: %+v, want the 3 written", got.Series)
	}
	checkRaw(in, usage, ts, ts+1)
}

// TestRetentionTimer checks that -retention deletes old points on its own,
// and that POST /retention without it is refused.
func TestRetentionTimer(t *testing.T) {
	dir := t.TempDir()
	in := start(t, "-dir", dir)
	in.refuse("POST", "/retention", nil, "", http.StatusConflict, "-retention")
	in.stop()

	in = start(t, "-dir", dir, "-retention", "1h", "-retention-interval", "20ms")
	w := &wantSeries{name: "temp,room=a c", float: true}
	now := time.Now()
	for _, age := range []time.Duration{3 * time.Hour, 2 * time.Hour, 10 * time.Minute, time.Minute} {
		w.add(uint64(now.Add(-age).UnixNano()), 0, age.Hours())
	}
	var b strings.Builder
	for j, ts := range w.ts {
		fmt.Fprintf(&b, "temp,room=a c=%v %d\n", w.floats[j], ts)
	}
	var res writeResult
	in.call("POST", "/write", nil, b.String(), &res)
	w.expire(uint64(now.Add(-time.Hour).UnixNano()))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var got rawResponse
		in.call("GET", "/query", url.Values{"series": {w.name}}, "", &got)
		if len(got.Points) == len(w.ts) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5s of retention every 20ms, %d points, want %d", len(got.Points), len(w.ts))
		}
	}
	checkRaw(in, w, 0, 0)
}

// TestLimits checks -max-body and -max-points.
func TestLimits(t *testing.T) {
	in := start(t, "-dir", t.TempDir(), "-max-body", "100", "-max-points", "3")
	in.refuse("POST", "/write", nil, strings.Repeat("cpu v=1 1\n", 11), http.StatusRequestEntityTooLarge, "more than 100 bytes")
	var res writeResult
	in.call("POST", "/write", nil, "cpu v=1 1\ncpu v=2 2\ncpu v=3 3\ncpu v=4 4\n", &res)
	p := url.Values{"series": {"cpu v"}}
	in.refuse("GET", "/query", p, "", http.StatusBadRequest, "more than 3 rows")
	p.Set("step", "1ns")
	in.refuse("GET", "/query", p, "", http.StatusBadRequest, "more than 3 rows")
	p.Set("step", "2ns")
	var got downsampledResponse
	in.call("GET", "/query", p, "", &got)
	if len(got.Buckets) != 3 || got.Buckets[2].Time != 4 || got.Buckets[2].Count != 1 {
		t.Errorf("buckets of 2ns from 0: %+v, want 3, the last at 4 with one point", got.Buckets)
	}
}
