package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
)

// Environment is the machine and software a report's results came from.
// CollectEnvironment fills everything but Seed and Sync, which the caller
// knows.
type Environment struct {
	// CPUModel is /proc/cpuinfo's model name.
	CPUModel string `json:"cpu_model"`
	// Cores is the number of logical CPUs Go may use.
	Cores int `json:"cores"`
	// MemoryBytes is the machine's RAM (MemTotal).
	MemoryBytes int64 `json:"memory_bytes"`
	// Kernel is the kernel release.
	Kernel string `json:"kernel"`
	OS     string `json:"os"`
	Arch   string `json:"arch"`
	// GoVersion is the Go release the binary was built with.
	GoVersion string `json:"go_version"`
	// DataPath is where the engines' directories were created.
	DataPath string `json:"data_path"`
	// Filesystem is the type of the file system holding DataPath ("ext4",
	// "xfs", "tmpfs", ...), or its magic number in hex if unknown.
	Filesystem string `json:"filesystem"`
	// CommandLine is the benchmark's arguments, program name first.
	CommandLine []string `json:"command_line"`
	// Seed is the workload's seed.
	Seed uint64 `json:"seed"`
	// Sync is the durability profile every engine ran with.
	Sync engine.SyncMode `json:"sync"`
	// MemoryLimit is -memory: the limit in bytes of the memory cgroup
	// each engine's process ran in, page cache included; 0 for none.
	MemoryLimit int64 `json:"memory_limit_bytes,omitempty"`
	// MemorySample is how often each engine process sampled its memory
	// by kind (SetSamplePeriod) when not every DefaultSamplePeriod;
	// negative if it did not sample.
	MemorySample time.Duration `json:"memory_sample_ns,omitempty"`
	// GoRuntime are the Go runtime's settings in the environment the
	// engines' processes inherit (GOGC, GOMEMLIMIT, GOMAXPROCS, GODEBUG),
	// those set: they change how much memory a Go engine holds.
	GoRuntime map[string]string `json:"go_runtime,omitempty"`
	// EngineVersions maps each registered engine to its library version.
	EngineVersions map[string]string `json:"engine_versions"`
	// EngineBuilds maps each registered engine to how its library was
	// built, measured from the loaded library where it can be (see
	// engine.Driver.Build): "release, official rocksdbjni binary",
	// "release, built from source with -O2 -DNDEBUG", "Go module v2.1.7".
	EngineBuilds map[string]string `json:"engine_builds"`
	// Start is when the run started.
	Start time.Time `json:"start"`
	// Tool is the build of this tool that ran.
	Tool Tool `json:"tool,omitzero"`
	// Interrupted, when the run was interrupted (Ctrl-C), lists the
	// engines it stopped or never started: the report lacks them.
	Interrupted []string `json:"interrupted,omitempty"`
	// MergedFrom, in a report that benchmark-storage merge made, are the
	// runs it merged, in the order given.
	MergedFrom []MergedRun `json:"merged_from,omitempty"`
}

// MergedRun is one run a merged report holds results of: where each of
// its figures came from.
type MergedRun struct {
	File        string    `json:"file"`
	RunID       string    `json:"run_id"`
	CommandLine []string  `json:"command_line"`
	Start       time.Time `json:"start"`
	Tool        Tool      `json:"tool,omitzero"`
	Engines     []string  `json:"engines"`
}

// CollectEnvironment describes this machine and process, with the file
// system of dataPath (or of its nearest existing parent). Facts it cannot
// read are left empty.
func CollectEnvironment(dataPath string) Environment {
	e := Environment{
		CPUModel:       procField("/proc/cpuinfo", "model name"),
		Cores:          runtime.NumCPU(),
		OS:             runtime.GOOS,
		Arch:           runtime.GOARCH,
		GoVersion:      runtime.Version(),
		CommandLine:    os.Args,
		DataPath:       dataPath,
		Filesystem:     filesystem(dataPath),
		EngineVersions: map[string]string{},
		EngineBuilds:   map[string]string{},
		Start:          time.Now(),
		Tool:           ThisTool(),
	}
	if abs, err := filepath.Abs(dataPath); err == nil {
		e.DataPath = abs
	}
	e.MemoryBytes = MemoryBytes()
	for _, name := range goRuntimeVars {
		if v, ok := os.LookupEnv(name); ok {
			if e.GoRuntime == nil {
				e.GoRuntime = map[string]string{}
			}
			e.GoRuntime[name] = v
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		e.Kernel = strings.TrimSpace(string(b))
	}
	for _, name := range engine.Names() {
		e.EngineVersions[name] = engine.Version(name)
		e.EngineBuilds[name] = engine.Build(name)
	}
	return e
}

// goRuntimeVars are the environment variables that tune the Go runtime
// (Environment.GoRuntime).
var goRuntimeVars = []string{"GOGC", "GOMEMLIMIT", "GOMAXPROCS", "GODEBUG"}

// procField returns the value of the first "name: value" line of a /proc
// file.
func procField(path, name string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// fsMagic names statfs(2) file system types.
var fsMagic = map[int64]string{
	0xef53:     "ext4",
	0x58465342: "xfs",
	0x9123683e: "btrfs",
	0x2fc12fc1: "zfs",
	0xf2f52010: "f2fs",
	0x01021994: "tmpfs",
	0x858458f6: "ramfs",
	0x794c7630: "overlayfs",
	0x65735546: "fuse",
	0x6969:     "nfs",
	0xff534d42: "cifs",
	0x01021997: "9p",
	0x4d44:     "vfat",
	0x5346544e: "ntfs",
	0xca451a4e: "bcachefs",
	0x73717368: "squashfs",
}

// filesystem returns the type of the file system holding path.
func filesystem(path string) string {
	for p := path; ; p = filepath.Dir(p) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(p, &st); err == nil {
			if name, ok := fsMagic[int64(st.Type)]; ok {
				return name
			}
			return fmt.Sprintf("0x%x", st.Type)
		}
		if p == filepath.Dir(p) {
			return ""
		}
	}
}

// Only keeps the versions and builds of the engines named, those a run
// ran, so that a report lists what produced its figures and nothing else.
func (e *Environment) Only(engines []string) {
	for _, m := range []map[string]string{e.EngineVersions, e.EngineBuilds} {
		maps.DeleteFunc(m, func(name, _ string) bool { return !slices.Contains(engines, name) })
	}
}

// MemoryBytes is this machine's RAM (MemTotal), 0 if unknown.
func MemoryBytes() int64 {
	kb, err := strconv.ParseInt(strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB"), 10, 64)
	if err != nil {
		return 0
	}
	return kb << 10
}

// Lines is e as label/value pairs, as the text and Markdown reports show
// it: one line per engine with its version and build.
func (e Environment) Lines() [][2]string {
	lines := [][2]string{
		{"CPU", fmt.Sprintf("%s, %d cores, %s RAM", e.CPUModel, e.Cores, report.Bytes(e.MemoryBytes))},
		{"System", fmt.Sprintf("%s/%s, kernel %s, %s", e.OS, e.Arch, e.Kernel, e.GoVersion)},
		{"Data path", fmt.Sprintf("%s (%s)", e.DataPath, e.Filesystem)},
		{"Sync", string(e.Sync)},
		{"Seed", strconv.FormatUint(e.Seed, 10)},
		{"Command", strings.Join(e.CommandLine, " ")},
		{"Started", e.Start.UTC().Format("2006-01-02 15:04:05 MST")},
	}
	if t := e.Tool.String(); t != "" {
		lines = append(lines, [2]string{"Tool", t})
	}
	if len(e.Interrupted) > 0 {
		lines = slices.Insert(lines, 0, [2]string{"INTERRUPTED", "the run was stopped (Ctrl-C) before it ran " + strings.Join(e.Interrupted, ", ") + ": this report lacks them"})
	}
	if e.MemoryLimit > 0 {
		lines = slices.Insert(lines, 4, [2]string{"Memory", report.Bytes(e.MemoryLimit) + " per engine process (a memory cgroup, page cache included)"})
	}
	if len(e.GoRuntime) > 0 {
		lines = slices.Insert(lines, 2, [2]string{"Go runtime", e.GoRuntimeSettings()})
	}
	for _, m := range e.MergedFrom {
		lines = append(lines, [2]string{"Merged from", fmt.Sprintf("%s: run %s of %s (%s), %s", m.File, m.RunID,
			m.Start.UTC().Format("2006-01-02 15:04 MST"), strings.Join(m.Engines, ", "), report.OrDash(m.Tool.String()))})
	}
	for _, name := range slices.Sorted(maps.Keys(e.EngineVersions)) {
		v := e.EngineVersions[name]
		if b := e.EngineBuilds[name]; b != "" {
			v = strings.TrimSpace(v + ", " + b)
		}
		lines = append(lines, [2]string{"Engine " + name, v})
	}
	return lines
}

// Ran corrects what e says of engine name by what a run of it recorded
// in h: an engine whose version depends on how it was opened
// (engine.Versioner: etcd's binary option) may have run another version
// than its driver's, which e was collected with; its build is then the
// run's own description of the instance.
func (e *Environment) Ran(name string, h Header) {
	if h.Version == "" || h.Version == e.EngineVersions[name] || e.EngineVersions == nil {
		return
	}
	e.EngineVersions[name] = h.Version
	if e.EngineBuilds != nil {
		e.EngineBuilds[name] = h.Description
	}
}

// Metrics is e as metric, value and unit, as the CSV reports write it.
func (e Environment) Metrics() [][3]string {
	m := [][3]string{
		{"cpu_model", e.CPUModel, ""},
		{"cores", strconv.Itoa(e.Cores), "count"},
		{"memory", strconv.FormatInt(e.MemoryBytes, 10), "bytes"},
		{"kernel", e.Kernel, ""},
		{"os", e.OS, ""},
		{"arch", e.Arch, ""},
		{"go_version", e.GoVersion, ""},
		{"data_path", e.DataPath, ""},
		{"filesystem", e.Filesystem, ""},
		{"command_line", strings.Join(e.CommandLine, " "), ""},
		{"seed", strconv.FormatUint(e.Seed, 10), ""},
		{"sync", string(e.Sync), ""},
		{"start", e.Start.UTC().Format(time.RFC3339), ""},
	}
	if e.Tool.Module != "" {
		m = append(m, [3]string{"tool", e.Tool.String(), ""}, [3]string{"tool_commit", e.Tool.Commit, ""})
	}
	for _, name := range slices.Sorted(maps.Keys(e.EngineVersions)) {
		m = append(m, [3]string{"version." + name, e.EngineVersions[name], ""})
	}
	for _, name := range slices.Sorted(maps.Keys(e.EngineBuilds)) {
		m = append(m, [3]string{"build." + name, e.EngineBuilds[name], ""})
	}
	if e.MemoryLimit > 0 {
		m = append(m, [3]string{"memory_limit", strconv.FormatInt(e.MemoryLimit, 10), "bytes"})
	}
	for _, name := range slices.Sorted(maps.Keys(e.GoRuntime)) {
		m = append(m, [3]string{"go_runtime." + name, e.GoRuntime[name], ""})
	}
	return m
}

// GoRuntimeSettings are the Go runtime's settings the run had, as an
// environment spells them ("GOMEMLIMIT=3GiB"), "" for the defaults.
func (e Environment) GoRuntimeSettings() string {
	var vars []string
	for _, name := range slices.Sorted(maps.Keys(e.GoRuntime)) {
		vars = append(vars, name+"="+e.GoRuntime[name])
	}
	return strings.Join(vars, " ")
}

// MemorySampling says how often the run sampled memory by kind: "every
// 200ms", or "none".
func (e Environment) MemorySampling() string {
	switch {
	case e.MemorySample < 0:
		return "none"
	case e.MemorySample == 0:
		return "every " + DefaultSamplePeriod.String()
	}
	return "every " + e.MemorySample.String()
}
