package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/suite"
)

// The JVM engines: the key-value stores of the 2016 LmdbJava reports,
// which the JVM worker (jvm/, built into build/jvm by
// scripts/build-jvm.sh) runs in a child process of its own, a JVM, that
// speaks the Go child's protocol (docs/protocol.md). They are not in package
// engine's registry: no Go program can open them.
var jvmEngines = []string{"lmdbjava", "lmdbjni", "lwjgl", "leveldbjni", "rocksdbjni", "mapdb", "mvstore", "xodus", "chroniclemap"}

// jvmGroup in an -engine list stands for every JVM engine; all keeps
// meaning the Go engines, which need no JDK.
const jvmGroup = "jvm"

// isJVM reports whether name is a JVM engine.
func isJVM(name string) bool { return slices.Contains(jvmEngines, name) }

// jvmHeap is the worker's heap, fixed (-Xms = -Xmx) so that no run pays
// for growing it, and recorded in every result.
const jvmHeap = "1g"

// The worker's files under its build directory: its jar, its dependencies'
// jars, and the JVM flags every engine needs on Java 17 (the module
// opens of Chronicle Map and the Unsafe buffers), which the worker's own
// tests use too.
const (
	workerJar     = "worker.jar"
	workerLib     = "lib"
	workerOptions = "jvm.options"
	workerMain    = "org.tsbench.jvm.Main"
)

// lmdbjavaBuffers are the values of -set lmdbjava.buffer: LmdbJava's
// ByteBuffer proxy or Agrona's DirectBuffer, the report's two variants.
var lmdbjavaBuffers = []string{"bytebuffer", "agrona"}

// workerDir finds build/jvm: beside the directory of this binary
// (bin/benchmark-storage of a checkout), else in the current directory or
// the nearest of its parents that has one (a checkout's subdirectory).
var workerDir = sync.OnceValue(func() string {
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), "..", "build", "jvm"))
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			candidates = append(candidates, filepath.Join(d, "build", "jvm"))
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	for _, d := range candidates {
		if _, err := os.Stat(filepath.Join(d, workerJar)); err == nil {
			if abs, err := filepath.Abs(d); err == nil {
				return abs
			}
		}
	}
	return ""
})

// checkJVM refuses, before anything runs, what the JVM engines of s
// cannot do: a workload the worker does not run (suite.JVMRunner),
// settings it lacks, a workload that reads keys in order on Chronicle Map
// (unordered), and a missing worker or java.
func checkJVM(s *settings) error {
	var jvm []string
	for _, n := range s.engines {
		if isJVM(n) {
			jvm = append(jvm, n)
		}
	}
	if len(jvm) == 0 {
		return nil
	}
	names := strings.Join(jvm, ", ")
	w := s.workload
	if !w.OnJVM() {
		var runs []string
		for _, o := range workloadsWhere((*suite.Suite).OnJVM) {
			runs = append(runs, o.Info().About)
		}
		return inputErrorf("-engine %s: the JVM engines run %s, not -workload %s", names, strings.Join(runs, " and "), w.Name())
	}
	if err := w.JVM(s.common); err != nil {
		return inputErrorf("-engine %s: %v", names, suite.Unprefixed(err, suite.ErrInvalid))
	}
	if w.Info().Ordered && slices.Contains(jvm, "chroniclemap") {
		return inputErrorf("-engine chroniclemap: Chronicle Map has no ordered iteration, which %s's queries need: run it with -benchmarks write,readKey", w.Info().About)
	}
	if workerDir() == "" {
		return inputErrorf("-engine %s: the JVM worker is not built (no build/jvm/%s beside this binary's directory, in the current one or its parents): run make build or scripts/build-jvm.sh", names, workerJar)
	}
	if src := staleWorker(workerDir()); src != "" {
		return inputErrorf("-engine %s: the JVM worker in %s is older than %s, so it would not run the worker's source: run make build or scripts/build-jvm.sh", names, workerDir(), src)
	}
	if _, err := exec.LookPath("java"); err != nil {
		return inputErrorf("-engine %s: no java on PATH: install openjdk-17-jdk-headless (make setup does)", names)
	}
	return nil
}

// staleWorker names a file of the worker's source (jvm/pom.xml and
// jvm/src/main beside build/jvm) newer than the worker's jar, or returns
// "" if none is, or if no source is there (a worker installed apart).
// Its figures would otherwise be those of a build of other code.
func staleWorker(dir string) string {
	jar, err := os.Stat(filepath.Join(dir, workerJar))
	if err != nil {
		return ""
	}
	src := filepath.Join(filepath.Dir(filepath.Dir(dir)), "jvm")
	var newer string
	for _, top := range []string{"pom.xml", filepath.Join("src", "main")} {
		filepath.WalkDir(filepath.Join(src, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // nothing there to be newer
			}
			if info, err := d.Info(); err == nil && !d.IsDir() && info.ModTime().After(jar.ModTime()) {
				newer = path
				return filepath.SkipAll
			}
			return nil
		})
		if newer != "" {
			return newer
		}
	}
	return ""
}

// jvmCommand is the command line of the worker running job j: java with
// the fixed heap and the worker's flags, then the protocol's flag.
func jvmCommand(j job) (path string, args []string) {
	dir := workerDir()
	path, err := exec.LookPath("java")
	if err != nil {
		path = "java" // checkJVM found it; starting it says what is wrong now
	}
	cp := filepath.Join(dir, workerJar) + string(os.PathListSeparator) + filepath.Join(dir, workerLib, "*")
	// A JVM that crashes writes its report to its working directory unless
	// told where: beside the logs of failed engine processes.
	errorFile := "-XX:ErrorFile=" + filepath.Join(supervise.LogDir(), "hs_err_pid%p.log")
	return path, []string{"java", "-Xms" + jvmHeap, "-Xmx" + jvmHeap, errorFile, "@" + filepath.Join(dir, workerOptions),
		"-cp", cp, workerMain, childJobFlag, j.Engine}
}

// lmdbjavaBuffer checks the -set overrides of the JVM engines, whether
// or not one runs, and returns LmdbJava's buffer: the one setting of their
// own.
func lmdbjavaBuffer(own []engine.Override) (string, error) {
	buffer := lmdbjavaBuffers[0]
	for _, o := range own {
		switch {
		case o.Engine != "lmdbjava" || o.Key != "buffer":
			return "", fmt.Errorf("-set %s: the JVM engines have one setting of their own, lmdbjava.buffer (%s)", o, strings.Join(lmdbjavaBuffers, " or "))
		case !slices.Contains(lmdbjavaBuffers, o.Value):
			return "", fmt.Errorf("-set %s: use %s", o, strings.Join(lmdbjavaBuffers, " or "))
		}
		buffer = o.Value
	}
	return buffer, nil
}

// jvmOptions resolves the options of JVM engine name: the shared keys of
// the config and the overrides, checked by package engine (resolved for
// goName, any Go engine: shared keys are the same for all), and for
// lmdbjava its buffer.
func jvmOptions(name, goName, config, source string, shared []engine.Override, buffer string) (engine.Options, map[string]any, error) {
	opts, err := engine.Resolve(goName, config, source, shared)
	if err != nil {
		return opts, nil, err
	}
	opts.Engine = nil
	b, err := json.Marshal(opts)
	if err != nil {
		return opts, nil, err
	}
	var eff map[string]any
	if err := json.Unmarshal(b, &eff); err != nil {
		return opts, nil, err
	}
	if name == "lmdbjava" {
		eff["lmdbjava"] = map[string]any{"buffer": buffer}
	}
	return opts, eff, nil
}
