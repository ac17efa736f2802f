package jvm

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/builddir"
	"github.com/tsbench/storage/internal/supervise"
)

// Group is the word that stands for every JVM engine in a list of engines
// (engine.Driver.Group).
const Group = "jvm"

// store is one JVM engine: its name, the Maven artifact it runs, the
// key of its version in the worker's versions.properties (written from
// jvm/pom.xml), and whether it keeps keys in order. The names are the
// worker's (jvm/src/main/java/org/tsbench/jvm/stores/Engine.java).
type store struct {
	name, artifact, versionKey string
	unordered                  bool
}

var stores = []store{
	{"lmdbjava", "org.lmdbjava:lmdbjava", "lmdbjava", false},
	{"lmdbjni", "org.deephacks.lmdbjni:lmdbjni", "lmdbjni", false},
	{"lwjgl", "org.lwjgl:lwjgl-lmdb", "lwjgl", false},
	{"leveldbjni", "org.fusesource.leveldbjni:leveldbjni-all", "leveldbjni", false},
	{"rocksdbjni", "org.rocksdb:rocksdbjni", "rocksdbjni", false},
	{"mapdb", "org.mapdb:mapdb", "mapdb", false},
	{"mvstore", "com.h2database:h2", "h2", false},
	{"xodus", "org.jetbrains.xodus:xodus-environment", "xodus", false},
	{"chroniclemap", "net.openhft:chronicle-map", "chronicle", true},
}

func init() {
	for _, s := range stores {
		d := engine.Driver{
			Process: process,
			Group:   Group,
			Version: func() string { return versions()[s.versionKey] },
			Build:   func() string { return "Maven " + s.artifact + ", run by the JVM worker in a JVM of its own" },
			Limits:  engine.Limits{Unordered: s.unordered},
		}
		if s.name == "lmdbjava" {
			d.NewOptions = func() any { return new(Options) }
		}
		engine.Register(s.name, d)
	}
}

// heap is the worker's heap, fixed (-Xms = -Xmx) so that no run pays for
// growing it; each result records it.
const heap = "1g"

// The worker's files under its build directory: its jar, its
// dependencies' jars, and the JVM flags every store needs on Java 17 (the
// module opens of Chronicle Map and the Unsafe buffers), which the
// worker's own tests use too.
const (
	workerJar     = "worker.jar"
	workerLib     = "lib"
	workerOptions = "jvm.options"
	workerMain    = "org.tsbench.jvm.Main"
)

// process is every JVM engine's command line: java with the fixed heap
// and the worker's flags; the child protocol's arguments follow. It
// fails, naming the fix, when the worker is not built or is older than
// its source, or no java is on PATH.
func process() (string, []string, error) {
	dir := workerDir()
	if dir == "" {
		return "", nil, fmt.Errorf("%w: it is not built (no build/jvm/%s beside this binary's directory, in the current one or its parents): run make build or scripts/build-jvm.sh", ErrWorker, workerJar)
	}
	if src := staleWorker(dir); src != "" {
		return "", nil, fmt.Errorf("%w: %s is older than %s, so it would not run the worker's source: run make build or scripts/build-jvm.sh", ErrWorker, filepath.Join(dir, workerJar), src)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return "", nil, fmt.Errorf("%w: no java on PATH: install openjdk-17-jdk-headless (make setup does)", ErrWorker)
	}
	cp := filepath.Join(dir, workerJar) + string(os.PathListSeparator) + filepath.Join(dir, workerLib, "*")
	// A JVM that crashes writes its report to its working directory unless
	// told where: beside the logs of failed engine processes.
	errorFile := "-XX:ErrorFile=" + filepath.Join(supervise.LogDir(), "hs_err_pid%p.log")
	return java, []string{"java", "-Xms" + heap, "-Xmx" + heap, errorFile, "@" + filepath.Join(dir, workerOptions), "-cp", cp, workerMain}, nil
}

// workerDir finds build/jvm by its jar (builddir.Find); "" if none has
// a worker.
var workerDir = sync.OnceValue(func() string {
	if jar := builddir.Find("jvm/" + workerJar); jar != "" {
		return filepath.Dir(jar)
	}
	return ""
})

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

// versions are the stores' Maven versions, as the worker's jar carries
// them (versions.properties, written from jvm/pom.xml when it is built);
// none without a worker.
var versions = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	dir := workerDir()
	if dir == "" {
		return out
	}
	z, err := zip.OpenReader(filepath.Join(dir, workerJar))
	if err != nil {
		return out
	}
	defer z.Close()
	f, err := z.Open("versions.properties")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
})
