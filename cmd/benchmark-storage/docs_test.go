package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/tsbench/storage/engine"
	etcdengine "github.com/tsbench/storage/engine/etcd"
	"github.com/tsbench/storage/internal/cgroup"
	"github.com/tsbench/storage/internal/powercut"
	"github.com/tsbench/storage/workload/steady"
	"github.com/tsbench/storage/workload/suite"
)

// docFiles are the documents whose commands TestDocCommands runs,
// relative to the repository root: a file, or a directory whose .md
// files (at any depth) are.
var docFiles = []string{"README.md", "docs"}

// The scale-down rule's bounds (TestDocCommands).
const (
	docMaxPoints   = 2000 // -points; -num alike
	docMaxSeries   = 20   // -series
	docMaxRate     = 2000 // -rate, points/s
	docMaxWorkers  = 2    // -writers, -readers
	docMaxKills    = 1    // -kills
	docMaxCount    = 2    // -count
	docMaxDuration = time.Second
)

// TestDocCommands runs every benchmark-storage command of README.md and
// of the Markdown files under docs/, as a reader would type them, at a
// small size: docs that run.
//
// Which lines are commands (extractCommands): in a code block (fenced,
// with no language or a shell's, or indented by four spaces), a line
// that runs benchmark-storage, bin/benchmark-storage or go run
// ./cmd/benchmark-storage, after an optional "$ " prompt, with \
// continuations joined and a trailing "# comment" dropped; the lines
// inside a shell loop (for ...; do ... done) once each; and a code span
// of the prose, `bin/benchmark-storage -engine all -points 1M`, that
// runs the program with an argument. Other programs (make, go test,
// benchstat) are not run. "> file", ">> file", "2> file" and "| tee
// file" write the command's output to that file; a pipe into another
// program is not run. A command expects exit status 0, or N when its
// comment says "exits N". A command with an upper-case placeholder
// (-engine E, -profile DIR) is a pattern: it is skipped.
//
// The commands of one document run in order, in a working directory of
// their own, so that a file an earlier command writes (-out old.json,
// > old.json) is there for a later compare or merge. An input (the
// files of compare and merge, globs expanded as a shell would, and
// -config) that is not in that directory is taken from the repository
// root (results/2014-100M/*-4GiB.json, configs/leveldb-2011.toml); one
// that is in neither fails the command: the docs must run as written.
// Documents run side by side, -parallel of them at a time (the number
// of cores by default), each command a process of its own: the program
// built once for the test, without -race (docBinary), whose engines run
// in child processes of that program as a reader's do. Its code runs
// under the race detector in this package's other tests and in its
// packages' own.
//
// The scale-down rule, applied to the flags given and to the defaults
// alike:
//
//   - -points and -num at most 2k, -series at most 20, -batch at most
//     -series (at most -num for the micro benchmarks);
//   - -duration at most 1s; with -workload steady, -speedup is
//     multiplied by the factor -duration was divided by, so that the
//     run's data time, and with it -retention, -bucket, -late-window and
//     -churn-every, stays as written; -rate at most 2k points/s
//     (steady's default 10k too);
//   - -writers and -readers at most 2, -kills at most 1 (each engine
//     still killed, or cut, reopened and checked once), -count at most 2;
//   - -path, given or not, is the working directory; -dataset and
//     -profile are their base name in it, as are -out and > files given
//     by an absolute path (relative ones are relative to it);
//   - -etcd-endpoints and -set etcd.endpoints name a one-member etcd the
//     test starts on loopback (skipped without an etcd binary);
//   - a local Cassandra cluster (-engine naming cassandra, without
//     cassandra.hosts or cassandra.nodes set) has one node, not three: each
//     node is a JVM that costs a start of its own, and the engine's
//     package tests run three (engine/cassandra's TestThreeNodes);
//   - everything else as written: the engine lists, -max-time, -memory,
//     -fault, -config, -set, -format, -sync.
//
// Commands that need what this machine lacks are skipped, saying why:
// -fault powercut without root and /dev/fuse, -memory without a memory
// cgroup, the JVM engines without the worker (make setup builds it in
// build/jvm) or java.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command of the docs, a minute or two")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// The JVM engines look for build/jvm from the working directory (this
	// package's, in the checkout), once.
	workerError()
	var files []string
	for _, name := range docFiles {
		err := filepath.WalkDir(filepath.Join(root, name), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				files = append(files, p)
			}
			return err
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	bin := docBinary(t)
	etcd := &docEtcd{}
	t.Cleanup(etcd.stop)
	type doc struct {
		rel  string
		cmds []docCommand
		cost int
	}
	var docs []doc
	total := 0
	for _, f := range files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cmds, err := extractCommands(rel, string(b))
		if err != nil {
			t.Errorf("command lines the test cannot read (write them plainly):\n%v", err)
		}
		if len(cmds) > 0 {
			docs = append(docs, doc{rel, cmds, docCost(cmds)})
			total += len(cmds)
		}
	}
	if total == 0 {
		t.Fatalf("found no benchmark-storage command in %v: has the extractor broken?", docFiles)
	}
	// The documents run side by side, -parallel of them at a time, the
	// longest first; the commands of one run in order, in a working
	// directory of its own, as in a reader's shell.
	slices.SortStableFunc(docs, func(a, b doc) int { return b.cost - a.cost })
	var (
		mu      sync.Mutex
		timings []string
		wg      sync.WaitGroup
	)
	sem := make(chan struct{}, docParallel())
	start := time.Now()
	for _, d := range docs {
		work := t.TempDir()
		env := docEnv{root: root, work: work, bin: bin, etcd: etcd.endpoint}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			ran := 0
			for _, c := range d.cmds {
				t.Run(c.name(), func(t *testing.T) {
					start := time.Now()
					runDocCommand(t, env, c)
					if !t.Skipped() {
						ran++
						mu.Lock()
						timings = append(timings, fmt.Sprintf("%6.1fs  %s  %s", time.Since(start).Seconds(), c.name(), c.text))
						mu.Unlock()
					}
				})
			}
			t.Logf("%s: %d commands, %d run", d.rel, len(d.cmds), ran)
		}()
	}
	wg.Wait()
	t.Logf("%d commands in %s; time of each:\n%s", total, time.Since(start).Round(time.Second), strings.Join(timings, "\n"))
}

// docParallel is how many documents run at a time: -test.parallel.
func docParallel() int {
	if f := flag.Lookup("test.parallel"); f != nil {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n > 0 {
			return n
		}
	}
	return 1
}

// docCost guesses how long cmds take, to start the longest document
// first: engine processes, the crash check's several rounds more.
func docCost(cmds []docCommand) int {
	cost := 0
	for _, c := range cmds {
		engines, n := "all", 1
		crash := false
		for i, a := range c.args {
			if i+1 < len(c.args) && (a == "-engine" || a == "--engine") {
				engines = c.args[i+1]
			}
			crash = crash || a == "crash"
		}
		for _, e := range strings.Split(engines, ",") {
			switch e {
			case "all":
				n += 11
			case "jvm":
				n += 2 * len(engine.GroupNames("jvm")) // a JVM starts slowly
			default:
				n++
			}
		}
		if crash {
			n *= 3
		}
		cost += n
	}
	return cost
}

// runDocCommand runs c, scaled down, in env's working directory, and
// fails unless it exits with the status the doc expects.
func runDocCommand(t *testing.T, env docEnv, c docCommand) {
	if c.placeholder != "" {
		t.Skipf("%s: a pattern, not a command: %s stands for something to fill in: %s", c.name(), c.placeholder, c.text)
	}
	args, skip, err := scaleDocArgs(c.args, env)
	if err != nil {
		t.Fatalf("%s: %s\ncannot run as written: %v", c.name(), c.text, err)
	}
	if skip != "" {
		t.Skipf("%s: %s", c.name(), skip)
	}
	if len(c.env) > 0 {
		t.Fatalf("%s: %s\nthe test does not set %s for a command: drop it, or run the command under a flag", c.name(), c.text, strings.Join(c.env, " "))
	}
	var out, errOut bytes.Buffer
	stdout, stderr := io.Writer(&out), io.Writer(&errOut)
	for _, name := range c.stdout {
		f := createDocOutput(t, env, name, c.appendOut)
		stdout = io.MultiWriter(stdout, f)
	}
	for _, name := range c.stderr {
		stderr = io.MultiWriter(stderr, createDocOutput(t, env, name, false))
	}
	if c.errToOut {
		stderr = io.MultiWriter(stderr, stdout)
	}
	start := time.Now()
	code, err := env.run(args, stdout, stderr)
	if err != nil {
		t.Fatalf("%s: %s\n%v", c.name(), c.text, err)
	}
	t.Logf("%s\nran as: benchmark-storage %s\nexit status %d in %s", c.text, quoteArgs(args), code, time.Since(start).Round(time.Millisecond))
	for _, n := range c.notes {
		t.Log(n)
	}
	switch {
	case code != c.status:
		t.Errorf("%s: %s\nexit status %d, want %d; stderr:\n%s", c.name(), c.text, code, c.status, lastBytes(errOut.String(), 8<<10))
	case code != 0:
		t.Logf("failed as the doc says; stderr:\n%s", lastBytes(errOut.String(), 2<<10))
	}
}

// createDocOutput opens the file a command's output is redirected to:
// a relative name in the working directory (its directories made
// there), an absolute one by its base name in the working directory.
func createDocOutput(t *testing.T, env docEnv, name string, appendTo bool) *os.File {
	t.Helper()
	p, err := env.output(name)
	if err != nil {
		t.Fatal(err)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendTo {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(p, flags, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// docBinary builds the program, without -race, into a directory of
// t's, and returns its path. Built so, a command and its engine
// processes take half the CPU time they take as the race-built test
// binary: 2.0 s against 4.2 s for ts -engine all over 2,000 points.
// -trimpath as make test builds, so that Go's build cache holds it for
// every clone; -ldflags=-w as make test links, without DWARF.
func docBinary(t *testing.T) string {
	t.Helper()
	// go test puts its own go first on PATH.
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go to build the program with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "benchmark-storage")
	start := time.Now()
	out, err := exec.Command(gobin, "build", "-trimpath", "-ldflags=-w", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("built the program in %v", time.Since(start).Round(time.Millisecond))
	return bin
}

// docEnv is where a document's commands run.
type docEnv struct {
	root string // the repository, where inputs not in work are found
	work string // the working directory, where outputs go
	bin  string // the program (docBinary)
	// etcd returns the endpoint of a running etcd, or why there is none.
	etcd func() (string, error)
}

// run runs the program with args in this package's directory, where it
// finds the JVM worker in the checkout's build/jvm as the test's engines
// do, and returns its exit status. The program dies with the test
// (Pdeathsig, from a thread kept for the command's life), and its engine
// processes with it.
func (e docEnv) run(args []string, stdout, stderr io.Writer) (int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.Command(e.bin, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	err := cmd.Run()
	if x := (*exec.ExitError)(nil); errors.As(err, &x) && x.Exited() {
		return x.ExitCode(), nil
	}
	return 0, err
}

// output is where the command writes file: a relative name in the
// working directory, its directories made; an absolute one by its base
// name in it.
func (e docEnv) output(file string) (string, error) {
	if filepath.IsAbs(file) {
		return filepath.Join(e.work, filepath.Base(file)), nil
	}
	p := filepath.Join(e.work, file)
	return p, os.MkdirAll(filepath.Dir(p), 0o755)
}

// input is file, an input of the command, as the paths it names: the
// file in the working directory if it is there, else in the repository;
// a glob expands to its matches in the first of them where it has any.
func (e docEnv) input(file string) ([]string, error) {
	if filepath.IsAbs(file) {
		if m, _ := filepath.Glob(file); len(m) > 0 {
			return m, nil
		}
		return nil, fmt.Errorf("input %s does not exist", file)
	}
	for _, dir := range []string{e.work, e.root} {
		if m, _ := filepath.Glob(filepath.Join(dir, file)); len(m) > 0 {
			return m, nil
		}
	}
	return nil, fmt.Errorf("input %s is not in the working directory, where no earlier command of the document wrote it, nor in the repository: make it first, or name a file the repository has", file)
}

// cmdFlag is one flag of a command line: -name, -name value or
// -name=value (value set), or an argument that is not a flag (name "").
type cmdFlag struct {
	name, value string
	hasValue    bool
	eq          bool // written -name=value
}

func (f cmdFlag) args() []string {
	switch {
	case f.name == "":
		return []string{f.value}
	case !f.hasValue:
		return []string{"-" + f.name}
	case f.eq:
		return []string{"-" + f.name + "=" + f.value}
	}
	return []string{"-" + f.name, f.value}
}

// parseCmdFlags splits args into flags as package flag reads them,
// isBool telling the flags that take no separate value; it stops at the
// first argument that is not a flag when stopAtArg.
func parseCmdFlags(args []string, isBool func(string) bool, stopAtArg bool) []cmdFlag {
	var fl []cmdFlag
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") || a == "--" {
			if stopAtArg {
				for _, rest := range args[i:] {
					fl = append(fl, cmdFlag{value: rest})
				}
				return fl
			}
			fl = append(fl, cmdFlag{value: a})
			continue
		}
		name := strings.TrimLeft(a, "-")
		if n, v, ok := strings.Cut(name, "="); ok {
			fl = append(fl, cmdFlag{name: n, value: v, hasValue: true, eq: true})
			continue
		}
		if isBool(name) || i+1 >= len(args) {
			fl = append(fl, cmdFlag{name: name})
			continue
		}
		i++
		fl = append(fl, cmdFlag{name: name, value: args[i], hasValue: true})
	}
	return fl
}

// cmdFlags are a command line's flags, to read and change.
type cmdFlags []cmdFlag

func (fl cmdFlags) get(name string) (string, bool) {
	v, ok := "", false
	for _, f := range fl {
		if f.name == name {
			v, ok = f.value, true
		}
	}
	return v, ok
}

// set gives every -name the value v, or adds -name v.
func (fl *cmdFlags) set(name, v string) {
	found := false
	for i := range *fl {
		if (*fl)[i].name == name {
			(*fl)[i].value, (*fl)[i].hasValue, found = v, true, true
		}
	}
	if !found {
		*fl = append(*fl, cmdFlag{name: name, value: v, hasValue: true})
	}
}

func (fl cmdFlags) args() []string {
	var out []string
	for _, f := range fl {
		out = append(out, f.args()...)
	}
	return out
}

// everyFlag defines every flag of the command on one flag set: its own,
// the shared ones and every workload's (a flag two define, the first's by
// name), for their defaults and whether they take a value.
func everyFlag() *flag.FlagSet {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	defineCommand(fs, new(settings), false)
	defineShared(fs, new(suite.Common), sharedFlags)
	for _, n := range suite.Names() {
		w, _ := suite.Lookup(n)
		own := flag.NewFlagSet(n, flag.ContinueOnError)
		w.NewConfig(own)
		own.VisitAll(func(f *flag.Flag) {
			if fs.Lookup(f.Name) == nil {
				fs.Var(f.Value, f.Name, f.Usage)
			}
		})
	}
	return fs
}

// scaleDocArgs applies the scale-down rule (TestDocCommands) to args,
// the arguments of a command of the docs. skip says why the command
// cannot run on this machine; err, why it cannot run as written.
func scaleDocArgs(args []string, env docEnv) (scaled []string, skip string, err error) {
	if len(args) > 0 && (args[0] == "compare" || args[0] == "merge" || args[0] == "history") {
		return scaleSubcommand(args, env)
	}
	defs := everyFlag()
	isBool := func(name string) bool {
		f := defs.Lookup(name)
		if f == nil {
			return false
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	def := func(name string) string {
		if f := defs.Lookup(name); f != nil {
			return f.DefValue
		}
		return ""
	}
	fl := cmdFlags(parseCmdFlags(args, isBool, false))
	for _, f := range fl {
		if f.name == "h" || f.name == "help" || f.name == "version" {
			return args, "", nil // nothing runs
		}
	}

	// limit bounds the count flag name to max, and returns its value
	// after: the default def if not given, which add bounds too.
	limit := func(name string, max int64, def string, add bool) int64 {
		v, given := fl.get(name)
		if !given {
			v = def
		}
		n, err := suite.ParseCount(v)
		if err != nil {
			return max // the command says what is wrong
		}
		if n <= max || (!given && !add) {
			return n
		}
		fl.set(name, strconv.FormatInt(max, 10))
		return max
	}
	workload := defaultWorkload
	if w, ok := fl.get("workload"); ok {
		workload = w
	}
	if _, ok := fl.get("benchmarks"); ok {
		workload = "micro"
	}
	switch workload {
	case "ts", "timeseries":
		limit("points", docMaxPoints, def("points"), true)
		series := limit("series", docMaxSeries, def("series"), true)
		limit("batch", series, def("batch"), false)
	case "micro":
		num := limit("num", docMaxPoints, def("num"), true)
		limit("batch", num, def("batch"), false)
	case "mixed", "steady":
		if workload == "mixed" {
			limit("points", docMaxPoints, "0", false)
		}
		series := limit("series", docMaxSeries, def("series"), true)
		limit("batch", series, def("batch"), false)
		limit("writers", docMaxWorkers, def("writers"), false)
		limit("readers", docMaxWorkers, def("readers"), false)
		factor := 1.0
		d, given := fl.get("duration")
		if !given {
			d = def("duration")
		}
		if dur, err := time.ParseDuration(d); err == nil && dur > docMaxDuration {
			fl.set("duration", docMaxDuration.String())
			factor = float64(dur) / float64(docMaxDuration)
		}
		rate, given := fl.get("rate")
		if workload == "steady" {
			speedup, bad := float64(steady.DefaultSpeedup), error(nil)
			if v, ok := fl.get("speedup"); ok {
				speedup, bad = strconv.ParseFloat(v, 64)
			}
			if factor > 1 && bad == nil {
				fl.set("speedup", strconv.FormatFloat(speedup*factor, 'g', -1, 64))
			}
			if !given {
				rate, given = strconv.Itoa(steady.DefaultRate), true
			}
		}
		var r suite.Rate
		if given && r.Set(rate) == nil && float64(r) > docMaxRate {
			fl.set("rate", strconv.Itoa(docMaxRate))
		}
	case "crash":
		limit("kills", docMaxKills, def("kills"), true)
	}
	limit("count", docMaxCount, def("count"), false)

	for i := range fl {
		f := &fl[i]
		if !f.hasValue {
			continue
		}
		switch f.name {
		case "path":
			f.value = env.work
		case "dataset":
			f.value = filepath.Join(env.work, filepath.Base(f.value))
		case "profile":
			f.value = filepath.Join(env.work, filepath.Base(f.value))
			if err := os.MkdirAll(f.value, 0o755); err != nil {
				return nil, "", err
			}
		case "out":
			if f.value, err = env.output(f.value); err != nil {
				return nil, "", err
			}
		case "config":
			in, err := env.input(f.value)
			if err != nil {
				return nil, "", fmt.Errorf("-config: %w", err)
			}
			f.value = in[0]
		case "etcd-endpoints":
			ep, err := env.etcd()
			if err != nil {
				return nil, fmt.Sprintf("-etcd-endpoints needs a running etcd, and the test has none: %v", err), nil
			}
			f.value = ep
		case "set":
			key, _, _ := strings.Cut(f.value, "=")
			switch key {
			case "etcd.endpoints":
				ep, err := env.etcd()
				if err != nil {
					return nil, fmt.Sprintf("-set etcd.endpoints needs a running etcd, and the test has none: %v", err), nil
				}
				f.value = key + "=" + ep
			case "etcd.heap_profiles":
				_, dir, _ := strings.Cut(f.value, "=")
				dir = filepath.Join(env.work, filepath.Base(dir))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return nil, "", err
				}
				f.value = key + "=" + dir
			}
		case "memory":
			if n, err := suite.ParseCount(f.value); err == nil && n == 0 {
				continue
			}
			if err := cgroup.Available(); err != nil {
				return nil, fmt.Sprintf("-memory needs a memory cgroup: %v", err), nil
			}
		case "fault":
			if strings.HasPrefix(f.value, "powercut") {
				if err := powercut.Available(); err != nil {
					return nil, fmt.Sprintf("-fault %s needs root and FUSE: %v", f.value, err), nil
				}
			}
		}
	}
	if _, ok := fl.get("path"); !ok {
		fl.set("path", env.work)
	}
	engines, ok := fl.get("engine")
	if !ok {
		engines = def("engine")
	}
	names := strings.Split(engines, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	for _, n := range names {
		if n != "jvm" && !slices.Contains(engine.GroupNames("jvm"), n) {
			continue
		}
		if err := workerError(); err != nil {
			return nil, "the JVM engines cannot run (make setup builds the worker): " + err.Error(), nil
		}
		break
	}
	if slices.Contains(names, "cassandra") && !setsAny(fl, "cassandra.nodes", "cassandra.hosts") {
		fl = append(fl, cmdFlag{name: "set", value: "cassandra.nodes=1", hasValue: true})
	}
	return fl.args(), "", nil
}

// setsAny reports whether fl has a -set of one of keys.
func setsAny(fl cmdFlags, keys ...string) bool {
	for _, f := range fl {
		key, _, _ := strings.Cut(f.value, "=")
		if f.name == "set" && slices.Contains(keys, key) {
			return true
		}
	}
	return false
}

// scaleSubcommand redirects compare's, merge's or history's -out and finds their
// inputs.
func scaleSubcommand(args []string, env docEnv) ([]string, string, error) {
	isBool := func(name string) bool { return name == "h" || name == "help" }
	fl := parseCmdFlags(args[1:], isBool, true)
	out := []string{args[0]}
	for _, f := range fl {
		switch {
		case f.name == "out" && f.hasValue:
			p, err := env.output(f.value)
			if err != nil {
				return nil, "", err
			}
			f.value = p
		case f.name == "" && f.value != "--":
			in, err := env.input(f.value)
			if err != nil {
				return nil, "", fmt.Errorf("%s: %w", args[0], err)
			}
			out = append(out, in...)
			continue
		}
		out = append(out, f.args()...)
	}
	return out, "", nil
}

// quoteArgs writes args as a shell command line.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t'\"$\\*?[]|&;<>()#~") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// lastBytes is the end of s, at most n bytes.
func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "...\n" + s[len(s)-n:]
}

// docEtcd is a one-member etcd on loopback that stands for the running
// cluster a document names (-etcd-endpoints 10.0.0.1:2379,...), started
// the first time a command needs it and stopped at the end of the test.
type docEtcd struct {
	once sync.Once
	cmd  *exec.Cmd
	dir  string
	ep   string
	err  error
}

func (e *docEtcd) endpoint() (string, error) {
	e.once.Do(func() { e.ep, e.err = e.start() })
	return e.ep, e.err
}

func (e *docEtcd) start() (string, error) {
	// The binary the etcd engine runs its local cluster with, else
	// any etcd.
	bin, err := exec.LookPath(etcdengine.DefaultBinary)
	if err != nil {
		if bin, err = exec.LookPath("etcd"); err != nil {
			return "", err
		}
	}
	ports := make([]int, 2)
	for i := range ports {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		ports[i] = ln.Addr().(*net.TCPAddr).Port
		ln.Close()
	}
	if e.dir, err = os.MkdirTemp("", "doc-etcd-"); err != nil {
		return "", err
	}
	client := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peer := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	// The server flags the local cluster runs with (README: etcd's
	// default --max-txn-ops refuses the default batch).
	e.cmd = exec.Command(bin, "--name", "doc", "--data-dir", filepath.Join(e.dir, "doc"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "doc="+peer, "--max-txn-ops", "10000", "--max-request-bytes", "10485760",
		"--unsafe-no-fsync", "--logger", "zap", "--log-outputs", "stderr", "--log-level", "error")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ETCD_") {
			e.cmd.Env = append(e.cmd.Env, kv)
		}
	}
	logPath := filepath.Join(e.dir, "log")
	log, err := os.Create(logPath)
	if err != nil {
		return "", err
	}
	defer log.Close()
	e.cmd.Stdout, e.cmd.Stderr = log, log
	e.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := e.cmd.Start(); err != nil {
		return "", err
	}
	ep := fmt.Sprintf("127.0.0.1:%d", ports[0])
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{ep}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return "", err
	}
	defer cli.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := cli.Get(ctx, "doc")
		cancel()
		if err == nil {
			return ep, nil
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logPath)
			return "", fmt.Errorf("etcd on %s not ready after 30s: %v\n%s", ep, err, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (e *docEtcd) stop() {
	if e.cmd != nil && e.cmd.Process != nil {
		e.cmd.Process.Kill()
		e.cmd.Wait()
	}
	if e.dir != "" {
		os.RemoveAll(e.dir)
	}
}

// TestDocCommandsScale checks the scale-down rule on command lines.
func TestDocCommandsScale(t *testing.T) {
	root, work := t.TempDir(), t.TempDir()
	for _, f := range []string{"configs/x.toml", "results/r/a-4GiB.json", "results/r/b-4GiB.json"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "old.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := docEnv{root: root, work: work, etcd: func() (string, error) { return "127.0.0.1:1", nil }}
	w, r := func(p string) string { return filepath.Join(work, p) }, func(p string) string { return filepath.Join(root, p) }
	for _, tc := range []struct{ in, want string }{
		{"", "-points 2000 -series 20 -path " + work},
		{"-engine rocksdb -points 100M -series 500k -path /mnt/ssd", "-engine rocksdb -points 2000 -series 20 -path " + work},
		{"-engine all -points 1k -series 10 -batch 100", "-engine all -points 1k -series 10 -batch 10 -path " + work},
		{"-count 5 -format json -out report.html", "-count 2 -format json -out " + w("report.html") + " -points 2000 -series 20 -path " + work},
		{"-benchmarks default -num 1M -batch 1M", "-benchmarks default -num 2000 -batch 2000 -path " + work},
		{"-workload micro -config configs/x.toml", "-workload micro -config " + r("configs/x.toml") + " -num 2000 -path " + work},
		{"-workload mixed -writers 4 -duration 15s -series 2k -rate 50k", "-workload mixed -writers 2 -duration 1s -series 20 -rate 2000 -path " + work},
		{"-workload steady -rate 50k -duration 25s -speedup 60 -retention 8m", "-workload steady -rate 2000 -duration 1s -speedup 1500 -retention 8m -series 20 -path " + work},
		{"-workload steady -retention 1m", "-workload steady -retention 1m -series 20 -duration 1s -speedup 10 -rate 2000 -path " + work},
		{"-workload crash -engine all", "-workload crash -engine all -kills 1 -path " + work},
		{"-workload crash -kills 1 -batch 500", "-workload crash -kills 1 -batch 500 -path " + work},
		{"-engine rocksdb -points 1M -dataset /home/x/datasets -keep", "-engine rocksdb -points 2000 -dataset " + w("datasets") + " -keep -series 20 -path " + work},
		{"-engine etcd -etcd-endpoints 10.0.0.1:2379,10.0.0.2:2379", "-engine etcd -etcd-endpoints 127.0.0.1:1 -points 2000 -series 20 -path " + work},
		{"-engine cassandra", "-engine cassandra -points 2000 -series 20 -path " + work + " -set cassandra.nodes=1"},
		{"-engine etcd,cassandra -set cassandra.nodes=3", "-engine etcd,cassandra -set cassandra.nodes=3 -points 2000 -series 20 -path " + work},
		{"-h", "-h"},
		{"compare -format html -out c.html old.json new.json", ""},
		{"compare -out /abs/c.html old.json " + filepath.Join("results", "r", "a-4GiB.json"), "compare -out " + w("c.html") + " " + w("old.json") + " " + r("results/r/a-4GiB.json")},
		{"merge -out 2014.html results/r/*-4GiB.json", "merge -out " + w("2014.html") + " " + r("results/r/a-4GiB.json") + " " + r("results/r/b-4GiB.json")},
		{"-engine pebble -config my.toml", ""},
	} {
		var args []string
		if tc.in != "" {
			args = strings.Fields(tc.in)
		}
		got, skip, err := scaleDocArgs(args, env)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%q: %q, want an error for the missing input", tc.in, got)
		case tc.want != "" && (err != nil || skip != "" || strings.Join(got, " ") != tc.want):
			t.Errorf("%q:\n got %q %q %v\nwant %q", tc.in, strings.Join(got, " "), skip, err, tc.want)
		}
	}
}
