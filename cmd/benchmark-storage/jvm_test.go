package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report/reporttest"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/micro"
	"github.com/tsbench/storage/workload/timeseries"
)

// workerError is why the JVM engines cannot run here (the worker not
// built, or no java), nil if they can.
func workerError() error {
	d, err := engine.Lookup("lmdbjava")
	if err != nil {
		return err
	}
	_, _, err = d.Process()
	return err
}

// needWorker skips a test that starts the JVM worker when it cannot run
// (make setup builds it).
func needWorker(t *testing.T) {
	t.Helper()
	if err := workerError(); err != nil {
		t.Skip(err)
	}
}

func TestParseEnginesJVM(t *testing.T) {
	jvm := engine.GroupNames("jvm")
	got, byGroup, err := parseEngines("pebble, jvm")
	if err != nil || len(got) != 1+len(jvm) || got[0] != "pebble" || !slices.Equal(got[1:], jvm) || !slices.Equal(byGroup, jvm) {
		t.Errorf("pebble,jvm: %v, by group %v, %v", got, byGroup, err)
	}
	all, _, err := parseEngines("all")
	if err != nil || slices.ContainsFunc(all, grouped) || !slices.Equal(all, engine.AllNames()) {
		t.Errorf("all: %v %v; want the Go engines alone", all, err)
	}
	if _, _, err := parseEngines("jvm,rocksdbjni"); err == nil || !strings.Contains(err.Error(), "rocksdbjni is listed twice") {
		t.Errorf("jvm,rocksdbjni: %v", err)
	}
	if _, _, err := parseEngines("lmdbjavaa"); err == nil || !strings.Contains(err.Error(), "or jvm (chroniclemap, leveldbjni, lmdbjava, ") {
		t.Errorf("unknown name: %v", err)
	}
}

// TestJVMEngineNames pins the JVM engines' names, sorted, in
// testdata/protocol/engines.json, which the worker's tests hold against
// its own list (ProtocolTest.engineNamesAgreeWithGo): an engine added,
// dropped or renamed on one side fails the other side's tests.
func TestJVMEngineNames(t *testing.T) {
	b, err := json.MarshalIndent(engine.GroupNames("jvm"), "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	reporttest.Golden(t, "protocol/engines.json", append(b, '\n'))
}

// TestJVMBadInput checks that what the JVM engines cannot do exits 2 with
// one line before anything is created.
func TestJVMBadInput(t *testing.T) {
	needWorker(t)
	parent := t.TempDir()
	for _, tc := range []refusal{
		{"mixed", []string{"-engine", "rocksdbjni", "-workload", "mixed"}, "not -workload mixed"},
		{"crash", []string{"-engine", "pebble,xodus", "-workload", "crash"}, "not -workload crash"},
		{"settle", []string{"-engine", "xodus", "-settle"}, "drop them"},
		{"db_bench only", []string{"-engine", "jvm", "-benchmarks", "fillseq,readrandom"}, "none of fillseq, readrandom"},
		{"unordered, named", []string{"-engine", "pebble,chroniclemap", "-points", "10k"}, "chroniclemap keeps no order of keys"},
		{"bad buffer", []string{"-engine", "lmdbjava", "-benchmarks", "write", "-set", "lmdbjava.buffer=heap"}, "use bytebuffer or agrona"},
		{"unknown key", []string{"-engine", "lmdbjava", "-benchmarks", "write", "-set", "lmdbjava.map_size=1G"}, "lmdbjava's keys are buffer"},
		{"JVM engine without settings", []string{"-engine", "xodus", "-benchmarks", "write", "-set", "xodus.cache=1G"}, "engine xodus has no options of its own"},
		{"JVM setting, no JVM engine run", []string{"-engine", "pebble", "-set", "lmdbjava.bufer=agrona"}, "lmdbjava, which this run does not include"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefused(t, tc.want, append([]string{"-path", parent}, tc.args...)...)
		})
	}
	checkUntouched(t, parent)
}

// TestJVMGroupLeavesOut: -engine jvm with a workload Chronicle Map cannot
// run runs the other eight and says it left Chronicle Map out.
func TestJVMGroupLeavesOut(t *testing.T) {
	needWorker(t)
	s, err := parseFlags([]string{"-engine", "jvm", "-path", t.TempDir(), "-points", "10k"})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.DeleteFunc(engine.GroupNames("jvm"), func(n string) bool { return n == "chroniclemap" })
	if !slices.Equal(s.engines, want) || len(s.leftOut) != 1 || !strings.Contains(s.leftOut[0], "left out chroniclemap: it keeps no order") {
		t.Errorf("engines %v, left out %q; want %v and chroniclemap left out", s.engines, s.leftOut, want)
	}
}

// TestJVMDbBench: db_bench's benchmarks in a list with LmdbJava's run on
// the JVM engines as not supported, in their columns; the others run.
func TestJVMDbBench(t *testing.T) {
	needWorker(t)
	parent, aside := t.TempDir(), t.TempDir()
	out := filepath.Join(aside, "results.json")
	runOK(t, "-engine", "xodus", "-path", parent, "-benchmarks", "fillseq,write,readKey", "-num", "1k", "-out", out)
	var rep micro.Report
	readJSON(t, out, &rep)
	if len(rep.Results) != 1 || len(rep.Results[0].Benchmarks) != 3 {
		t.Fatalf("results %+v", rep.Results)
	}
	bs := rep.Results[0].Benchmarks
	if bs[0].Name != "fillseq" || bs[0].Ops != 0 || !strings.Contains(bs[0].Setup, "not supported: the JVM worker runs") {
		t.Errorf("fillseq: %+v", bs[0])
	}
	for _, b := range bs[1:] {
		if b.Ops != 1000 || b.Error != "" {
			t.Errorf("%s: %+v", b.Name, b)
		}
	}
	checkUntouched(t, parent)
}

// TestJVMOptions checks the options a JVM engine's job carries: the shared
// keys with the flags applied, and lmdbjava's buffer.
func TestJVMOptions(t *testing.T) {
	needWorker(t)
	s, err := parseFlags([]string{"-engine", "lmdbjava,rocksdbjni", "-path", t.TempDir(), "-benchmarks", "write",
		"-compression", "off", "-cache-size", "8MiB", "-set", "lmdbjava.buffer=agrona"})
	if err != nil {
		t.Fatal(err)
	}
	l, r := s.effective("lmdbjava"), s.effective("rocksdbjni")
	if l["disable_compression"] != true || r["cache_size"] != int64(8<<20) || r["sync"] != "none" {
		t.Errorf("shared options: %v", r)
	}
	if own, _ := l["lmdbjava"].(map[string]any); own["buffer"] != "agrona" {
		t.Errorf("lmdbjava: %v", l)
	}
	if _, ok := r["lmdbjava"]; ok {
		t.Errorf("rocksdbjni has lmdbjava's setting: %v", r)
	}
}

// TestJVMProtocolJob checks the jobs the parent writes for a JVM engine
// against testdata/protocol/job-*.json, which the JVM worker's tests run:
// a change to the job shows in both suites (go test -update rewrites the
// files).
func TestJVMProtocolJob(t *testing.T) {
	needWorker(t)
	for _, tc := range []struct {
		file, engine string
		args         []string
	}{
		{"job-micro.json", "mvstore", []string{"-benchmarks", "write,readKey,readSeq,readCrc", "-key", "int4", "-num", "2k"}},
		{"job-ts.json", "mvstore", []string{"-points", "6k", "-series", "100", "-batch", "50"}},
	} {
		s, err := parseFlags(append([]string{"-engine", tc.engine, "-path", t.TempDir()}, tc.args...))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(newJob(s, roleRun, tc.engine, "DIR", "log"), "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		reporttest.Golden(t, "protocol/"+tc.file, append(b, '\n'))
		// The Go child reads the same document, refusing unknown fields.
		var j job
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&j); err != nil || j.Engine.Name != tc.engine {
			t.Errorf("%s: decode: %+v %v", tc.file, j, err)
		}
	}
}

// TestJVMProtocolResult decodes the JVM worker's result fixtures as the
// parent does, refusing fields the result types lack, and checks that
// nothing of them is lost: encoded again they have the same keys.
func TestJVMProtocolResult(t *testing.T) {
	var m micro.Result
	roundTrip(t, "testdata/protocol/result-micro.json", &m)
	if m.Engine != "mvstore" || len(m.Benchmarks) != 4 || m.Benchmarks[0].JVM == nil || m.Benchmarks[0].Storage == nil ||
		m.Benchmarks[1].Verify == nil || !m.Benchmarks[1].Verify.OK() || !strings.Contains(m.Description, "JVM ") {
		t.Errorf("micro result: %+v", m)
	}
	var ts timeseries.Result
	roundTrip(t, "testdata/protocol/result-ts.json", &ts)
	if ts.Engine != "mvstore" || len(ts.Steps) != 6 || ts.Config.Points != 6000 || ts.Step(timeseries.StepQuery).Verify == nil ||
		!ts.Step(timeseries.StepQueryAfterDelete).Verify.OK() || ts.Error != "" {
		t.Errorf("time-series result: %+v", ts)
	}
}

// roundTrip decodes file into res refusing unknown fields, and checks that
// res encoded again has the file's keys.
func roundTrip(t *testing.T, file string, res any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(res); err != nil {
		t.Fatalf("%s: the worker's result is no %T: %v", file, res, err)
	}
	again, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &got); err != nil {
		t.Fatal(err)
	}
	if w, g := keyPaths(want, ""), keyPaths(got, ""); !slices.Equal(w, g) {
		t.Errorf("%s: keys differ after a round trip:\nfixture %v\nGo      %v", file, w, g)
	}
}

// keyPaths lists the JSON object keys in v as dotted paths, sorted; the
// elements of an array count as one.
func keyPaths(v any, prefix string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			out = append(out, prefix+k)
			out = append(out, keyPaths(e, prefix+k+".")...)
		}
	case []any:
		for _, e := range x {
			out = append(out, keyPaths(e, prefix)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestJVMProtocolStatus decodes the status lines of the fixture, which the
// JVM worker's tests compare its own with, as the parent reads them.
func TestJVMProtocolStatus(t *testing.T) {
	f, err := os.Open("testdata/protocol/status.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var st supervise.Status
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st); err != nil || st.Step == "" {
			t.Errorf("line %d: %q: %+v %v", n+1, sc.Text(), st, err)
		}
	}
	if n == 0 {
		t.Error("no status lines")
	}
}

// TestJVMEndToEnd runs two JVM engines through the parent as a user
// would: Chronicle Map's ordered read is not supported, not failed, and
// every read is checked.
func TestJVMEndToEnd(t *testing.T) {
	needWorker(t)
	parent, aside := t.TempDir(), t.TempDir()
	out := filepath.Join(aside, "results.json")
	runOK(t, "-engine", "lmdbjava,chroniclemap", "-path", parent, "-benchmarks", "write,readKey,readSeq",
		"-key", "str16", "-order", "seq", "-num", "3k", "-set", "lmdbjava.buffer=agrona", "-out", out)
	var rep micro.Report
	readJSON(t, out, &rep)
	if len(rep.Results) != 2 {
		t.Fatalf("%d results", len(rep.Results))
	}
	for _, res := range rep.Results {
		if res.Error != "" || len(res.Benchmarks) != 3 || res.Version == "" || !strings.Contains(res.Description, "-Xms1g -Xmx1g") {
			t.Errorf("%s: %+v", res.Engine, res)
			continue
		}
		for _, b := range res.Benchmarks[:2] {
			if b.Ops != 3000 || b.JVM == nil || b.JVM.WarmupOps != 3000 || (b.Verify != nil && !b.Verify.OK()) {
				t.Errorf("%s %s: %+v", res.Engine, b.Name, b)
			}
			checkJVMMemory(t, res.Engine+" "+b.Name, b.Memory)
		}
	}
	if v := rep.Results[0].Benchmarks[2].Verify; v == nil || v.Read != 3000 || !v.OK() {
		t.Errorf("lmdbjava readSeq: %+v", v)
	}
	if b := rep.Results[1].Benchmarks[2]; b.Ops != 0 || b.Error != "" || !strings.Contains(b.Setup, "not supported: unordered") {
		t.Errorf("chroniclemap readSeq: %+v", b)
	}
	if !strings.Contains(rep.Results[0].Description, "Maven org.lmdbjava:lmdbjava 0.9.3, LMDB ") {
		t.Errorf("lmdbjava: %s", rep.Results[0].Description)
	}
	checkUntouched(t, parent)
}

// checkJVMMemory fails unless m, a JVM engine's memory by kind, was
// sampled and has private memory and no Go runtime's.
func checkJVMMemory(t *testing.T, what string, m *measure.MemoryPeaks) {
	t.Helper()
	if m == nil || m.Samples < 1 || m.Private <= 0 || m.Go != 0 {
		t.Errorf("%s: memory %+v, want private memory sampled and no Go runtime's", what, m)
	}
}

// TestJVMMemory checks that a JVM engine's steps and benchmarks have
// memory by kind where a Go engine's do, so that the two compare, in the
// protocol's fixtures (TestJVMEndToEnd checks it from a running worker,
// and the worker's own ProtocolTest that -memory-sample reaches it).
func TestJVMMemory(t *testing.T) {
	var ts timeseries.Result
	roundTrip(t, "testdata/protocol/result-ts.json", &ts)
	for _, st := range ts.Steps {
		checkJVMMemory(t, "result-ts.json "+st.Name, st.Memory)
	}
	var m micro.Result
	roundTrip(t, "testdata/protocol/result-micro.json", &m)
	for _, b := range m.Benchmarks {
		checkJVMMemory(t, "result-micro.json "+b.Name, b.Memory)
	}
}

// TestJobRoundTrip: every engine's options, as the parent resolved them
// with a config's settings and flags, reach the child through the job's
// JSON as identical typed values (engine.Spec).
func TestJobRoundTrip(t *testing.T) {
	needWorker(t) // the JVM engines are among them
	names := engine.Names()
	s, err := parseFlags([]string{"-engine", strings.Join(names, ","), "-path", t.TempDir(), "-benchmarks", "write",
		"-cache-size", "8MiB", "-compression", "off", "-sync", "batch", "-set", "lmdbjava.buffer=agrona"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		child, err := readJob(bytes.NewReader(newJob(s, roleRun, name, "DIR", "log").encode()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := child.specs[name], s.specs[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the child has %+v (%+v), the parent %+v (%+v)", name, got.Options, got.Options.Engine, want.Options, want.Options.Engine)
		}
	}
}
