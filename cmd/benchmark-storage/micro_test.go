package main

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/micro"
)

// tinyMicro is a micro run small enough for -race.
var tinyMicro = []string{"-benchmarks", "fillseq,fillrandom,readrandom,readseq,readCrc,deleterandom,readrandom", "-num", "2k", "-value-size", "64"}

func TestParseMicroFlags(t *testing.T) {
	a, _ := testEngines(t)
	s, err := parseFlags([]string{"-engine", a, "-path", t.TempDir(), "-benchmarks", "FILLSEQ,readKey,default", "-num", "1.5M",
		"-value-size", "2k", "-key", "int4", "-order", "seq", "-compression-ratio", "0.25", "-batch", "10k",
		"-cache-size", "8M", "-compression", "off", "-format", "gobench", "-out", "old.txt"})
	if err != nil {
		t.Fatal(err)
	}
	m := s.workload.Settings().(micro.Config)
	if !slices.Equal(m.Benchmarks, append([]string{micro.FillSeq, micro.ReadKey}, micro.DefaultBenchmarks...)) ||
		m.Num != 1_500_000 || m.ValueSize != 2000 || m.KeyType != micro.KeyInt4 || m.Order != micro.OrderSeq || m.CompressionRatio != 0.25 || s.common.Batch != 10_000 || m.Batch != 10_000 {
		t.Errorf("micro settings %+v, batch %d", m, s.common.Batch)
	}
	if s.outFormat != "gobench" {
		t.Errorf("-format gobench -out old.txt writes %s, want gobench", s.outFormat)
	}
	o, err := engineOptions(s, a)
	if err != nil || o.CacheSize != 8_000_000 || !o.DisableCompression {
		t.Errorf("options %+v, %v; want an 8 MB cache and no compression", o, err)
	}
	// The children get the same settings.
	child, err := readJob(bytes.NewReader(newJob(s, roleRun, a, "d", "log").encode()))
	if err != nil {
		t.Fatal(err)
	}
	if cm, ok := child.workload.Settings().(micro.Config); !ok || !reflect.DeepEqual(cm, m) || child.common.Dataset != s.common.Dataset ||
		!sameOptions(t, child, s, a) || child.workload.Name() != "micro" {
		t.Errorf("child settings %+v, parent %+v", child, s)
	}

	s, err = parseFlags([]string{"-engine", a, "-path", t.TempDir(), "-benchmarks", "fillseq"})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.workload.Settings().(micro.Config); c.Num != micro.DefaultNum || c.ValueSize != micro.DefaultValueSize || c.KeyType != micro.DefaultKeyType ||
		c.Order != micro.DefaultOrder || c.CompressionRatio != micro.DefaultCompressionRatio || c.Batch != micro.DefaultBatch || c.Seed != 1 {
		t.Errorf("default micro config %+v", c)
	}
	if o, _ := engineOptions(s, a); o.CacheSize != engine.DefaultCacheSize || o.DisableCompression {
		t.Errorf("without -cache-size and -compression: %+v", o)
	}
}

// TestMicroBadInput checks the micro flags' mistakes the way TestBadInput
// checks the others: exit status 2, one line naming the problem, nothing
// created.
func TestMicroBadInput(t *testing.T) {
	a, _ := testEngines(t)
	parent := t.TempDir()
	for _, tc := range []refusal{
		{"unknown benchmark", []string{"-benchmarks", "fillseq,readfast"}, `unknown benchmark "readfast"`},
		{"empty benchmark", []string{"-benchmarks", "fillseq,,readseq"}, "empty benchmark name"},
		{"num 0", []string{"-benchmarks", "fillseq", "-num", "0"}, "-num"},
		{"num abc", []string{"-benchmarks", "fillseq", "-num", "abc"}, "-num"},
		{"num beyond the keys", []string{"-benchmarks", "fillseq", "-key", "int4", "-num", "5G"}, "int4 keys"},
		{"value size 0", []string{"-benchmarks", "fillseq", "-value-size", "0"}, "-value-size"},
		{"value size too large", []string{"-benchmarks", "fillseq", "-value-size", "1G"}, "-value-size 1000000000"},
		{"batch too large", []string{"-benchmarks", "fillseq", "-batch", "2M"}, "-batch 2000000"},
		{"bad key type", []string{"-benchmarks", "fillseq", "-key", "int8"}, "-key"},
		{"bad order", []string{"-benchmarks", "fillseq", "-order", "sorted"}, "-order"},
		{"ratio 0", []string{"-benchmarks", "fillseq", "-compression-ratio", "0"}, "-compression-ratio"},
		{"ratio above 1", []string{"-benchmarks", "fillseq", "-compression-ratio", "1.5"}, "-compression-ratio"},
		{"bad compression", []string{"-compression", "maybe"}, "-compression"},
		{"cache size 0", []string{"-cache-size", "0"}, "-cache-size"},
		{"points with benchmarks", []string{"-benchmarks", "fillseq", "-points", "1M"}, "-points is not a flag of the micro benchmarks"},
		{"settle with benchmarks", []string{"-benchmarks", "fillseq", "-settle"}, "-settle is not a flag of the micro benchmarks"},
		{"reuse-iterator with benchmarks", []string{"-benchmarks", "fillseq", "-reuse-iterator"}, "-reuse-iterator is not a flag of the micro benchmarks"},
		{"num without benchmarks", []string{"-num", "1M"}, "but of the micro benchmarks: benchmark-storage micro -num ..."},
		{"key without benchmarks", []string{"-key", "int4"}, "but of the micro benchmarks: benchmark-storage micro -key ..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefused(t, tc.want, append([]string{"-engine", a, "-path", parent}, tc.args...)...)
		})
	}
	checkUntouched(t, parent)
}

// TestMicroEndToEnd runs the micro benchmarks on two engines, each in its
// own child process, and checks the gobench output and the JSON report.
func TestMicroEndToEnd(t *testing.T) {
	a, b := pureGoEngines(t)
	parent, aside := t.TempDir(), t.TempDir()
	out := filepath.Join(aside, "results.json")
	args := append([]string{"-engine", a + "," + b, "-path", parent, "-format", "gobench", "-seed", "3", "-key", "ts24", "-compression", "off"}, tinyMicro...)
	stdout, _ := runOK(t, append(args, "-out", out)...)
	var rep micro.Report
	readJSON(t, out, &rep)
	if len(rep.Results) != 2 || rep.Results[0].Engine != a || rep.Results[1].Engine != b || rep.Env.Seed != 3 {
		t.Fatalf("report %+v", rep)
	}
	for _, res := range rep.Results {
		if res.Error != "" || len(res.Benchmarks) != 7 || res.Config.KeyType != micro.KeyTS24 || res.Config.Num != 2000 ||
			res.Options["disable_compression"] != true || res.Version == "" {
			t.Errorf("%s: %+v", res.Engine, res)
			continue
		}
		for _, bm := range res.Benchmarks {
			if bm.Error != "" || (bm.Verify != nil && !bm.Verify.OK()) {
				t.Errorf("%s %s: %s %+v", res.Engine, bm.Name, bm.Error, bm.Verify)
			}
		}
		if v := res.Benchmarks[2].Verify; v == nil || v.Read != 2000 {
			t.Errorf("%s readrandom read %+v, want 2000 entries", res.Engine, v)
		}
		if v := res.Benchmarks[6].Verify; v == nil || v.Read != 0 || res.Benchmarks[6].Ops != 2000 {
			t.Errorf("%s readrandom after deleterandom: %+v, want 2000 Gets finding nothing", res.Engine, v)
		}
	}
	for _, want := range []string{"goos: ", "BenchmarkMicro/engine=" + a + "/op=fillseq/key=ts24/value=64\t2000\t", " ns/op\t", "/op=readrandom#2/"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("gobench output lacks %q:\n%s", want, stdout)
		}
	}
	checkUntouched(t, parent)
}

// TestMicroEngineFails checks that an engine whose child crashes shows its
// error in its column while the other's results stand.
func TestMicroEngineFails(t *testing.T) {
	a, b := pureGoEngines(t)
	t.Setenv(envFault, a+":3")
	parent := t.TempDir()
	code, stdout, stderr := runChildren(t, append([]string{"-engine", a + "," + b, "-path", parent}, tinyMicro...)...)
	if code != exitFailed {
		t.Fatalf("status %d, want %d; stderr:\n%s", code, exitFailed, stderr)
	}
	for _, want := range []string{a + ": engine process exited with status 3", "FAILED !", "fillseq"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	checkUntouched(t, parent)
}

func TestHelpListsMicroFlags(t *testing.T) {
	_, _, stderr := runCmd(t, "micro", "-h")
	for _, want := range []string{"-benchmarks", "-num", "-value-size", "-key", "-order", "-compression-ratio", "-cache-size", "-compression"} {
		if !strings.Contains(stderr, "\n  "+want+" ") {
			t.Errorf("usage lacks %s:\n%s", want, stderr)
		}
	}
}

// sameOptions reports whether engine name runs with the same options in
// the child as its parent resolved.
func sameOptions(t *testing.T, child, parent *settings, name string) bool {
	t.Helper()
	o, err := engineOptions(child, name)
	if err != nil {
		t.Fatal(err)
	}
	eff, err := engine.Effective(name, o)
	if err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(eff, parent.effective(name))
}
