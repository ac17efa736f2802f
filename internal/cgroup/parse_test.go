package cgroup

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Fixtures: v1 files as Linux 6.18 shows them, v2 files in the format of
// Documentation/admin-guide/cgroup-v2.rst.
const (
	v1Stat = `cache 12677120
rss 7073792
rss_huge 0
shmem 9084928
mapped_file 7507968
dirty 28672
writeback 0
swap 0
pgpgin 41512
pgpgout 36728
inactive_anon 0
active_anon 1531904
inactive_file 372736
active_file 3219456
unevictable 14626816
hierarchical_memory_limit 9223372036854771712
hierarchical_memsw_limit 9223372036854771712
total_cache 2294673408
total_rss 16261120
total_rss_huge 0
total_shmem 9084928
total_mapped_file 15040512
total_swap 0
`
	v1OOMControl = `oom_kill_disable 0
under_oom 0
oom_kill 3
`
	v2Stat = `anon 104857600
file 52428800
kernel 3145728
kernel_stack 212992
pagetables 438272
sec_pagetables 0
percpu 1440
sock 0
vmalloc 0
shmem 0
zswap 0
zswapped 0
file_mapped 4096
file_dirty 0
file_writeback 0
swapcached 0
anon_thp 0
inactive_anon 104808448
active_anon 49152
inactive_file 52428800
active_file 0
unevictable 0
slab_reclaimable 1046712
slab_unreclaimable 1193360
slab 2240072
workingset_refault_anon 0
workingset_refault_file 0
pgfault 26048
pgmajfault 0
thp_fault_alloc 0
`
	v2Events = `low 0
high 0
max 57
oom 2
oom_kill 2
oom_group_kill 0
`
)

func TestParseKeyed(t *testing.T) {
	for _, c := range []struct {
		name, text, key string
		want            int64
	}{
		{"memory.stat", v1Stat, "total_cache", 2294673408},
		{"memory.stat", v1Stat, "rss", 7073792},
		{"memory.stat", v1Stat, "hierarchical_memory_limit", 9223372036854771712},
		{"memory.oom_control", v1OOMControl, "oom_kill", 3},
		{"memory.oom_control", v1OOMControl, "under_oom", 0},
		{"memory.stat", v2Stat, "anon", 104857600},
		{"memory.stat", v2Stat, "file", 52428800},
		{"memory.events", v2Events, "oom_kill", 2},
		{"memory.events", v2Events, "max", 57},
	} {
		m, err := parseKeyed(c.name, []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := m[c.key]; !ok || got != c.want {
			t.Errorf("%s %s = %d, %t; want %d", c.name, c.key, got, ok, c.want)
		}
	}
	for _, bad := range []string{"cache\n", "cache x\n", "cache 1 2\n"} {
		if _, err := parseKeyed("memory.stat", []byte(bad)); err == nil {
			t.Errorf("parseKeyed(%q) succeeded", bad)
		}
	}
}

func TestParseValue(t *testing.T) {
	for text, want := range map[string]int64{
		"67108864\n":            67108864,
		"max\n":                 math.MaxInt64,
		"9223372036854771712\n": 9223372036854771712,
	} {
		if got, err := parseValue("f", []byte(text)); err != nil || got != want {
			t.Errorf("parseValue(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "12 34\n", "max max\n"} {
		if _, err := parseValue("f", []byte(bad)); err == nil {
			t.Errorf("parseValue(%q) succeeded", bad)
		}
	}
}

func TestCgroupPath(t *testing.T) {
	// v1 with a v2 line beside it, as systemd's hybrid mode shows them.
	hybrid := `9:name=systemd:/
8:pids:/
4:memory:/benchmark-storage/1234-pebble
3:cpu,cpuacct:/
0::/
`
	v2 := "0::/benchmark-storage/1234-pebble\n"
	for _, c := range []struct {
		text string
		v2   bool
		want string
		ok   bool
	}{
		{hybrid, false, "/benchmark-storage/1234-pebble", true},
		{hybrid, true, "/", true},
		{v2, true, "/benchmark-storage/1234-pebble", true},
		{v2, false, "", false},
		{"4:memory:/a:b\n", false, "/a:b", true},
		{"4:cpu:/\n", false, "", false},
	} {
		got, ok := cgroupPath([]byte(c.text), c.v2)
		if got != c.want || ok != c.ok {
			t.Errorf("cgroupPath(%q, v2 %t) = %q, %t; want %q, %t", c.text, c.v2, got, ok, c.want, c.ok)
		}
	}
}

func TestFindHierarchy(t *testing.T) {
	v1 := `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	v2 := `24 1 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
`
	container := `1064 1057 0:30 /docker/abc /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw
`
	hasMemory := func(mount string) bool { return mount == "/sys/fs/cgroup" }
	for _, c := range []struct {
		name, info string
		want       hierarchy
		ok         bool
	}{
		{"v1 beside a v2 mount without memory", v1, hierarchy{mount: "/sys/fs/cgroup/memory", root: "/"}, true},
		{"v2", v2, hierarchy{v2: true, mount: "/sys/fs/cgroup", root: "/"}, true},
		{"container's subtree", container, hierarchy{v2: true, mount: "/sys/fs/cgroup", root: "/docker/abc"}, true},
		{"no cgroups", "24 1 0:22 / /sys rw - sysfs sysfs rw\n", hierarchy{}, false},
	} {
		got, ok := findHierarchy([]byte(c.info), hasMemory)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %+v, %t; want %+v, %t", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestGroupDir(t *testing.T) {
	h := hierarchy{v2: true, mount: "/sys/fs/cgroup", root: "/docker/abc"}
	for p, want := range map[string]string{
		"/docker/abc/benchmark-storage/12-x":   "/sys/fs/cgroup/benchmark-storage/12-x",
		"/docker/abc/benchmark-storage/12-x/y": "",
		"/docker/abc/benchmark-storage/":       "",
		"/docker/abc/benchmark-storage":        "",
		"/benchmark-storage/12-x":              "",
		"/docker/abc/other/12-x":               "",
	} {
		got, ok := h.groupDir(p)
		if got != want || ok != (want != "") {
			t.Errorf("groupDir(%q) = %q, %t; want %q", p, got, ok, want)
		}
	}
}

func TestCreator(t *testing.T) {
	for name, want := range map[string]int{
		"1234-pebble":   1234,
		"1234-":         1234,
		"1-a-b":         1,
		"pebble-1234":   0,
		"1234":          0,
		"-1234":         0,
		"0-x":           0,
		"+12-x":         0,
		"0012-x":        0,
		"99999999999-x": 0,
	} {
		got, ok := creator(name)
		if ok != (want != 0) || ok && got != want {
			t.Errorf("creator(%q) = %d, %t; want %d", name, got, ok, want)
		}
	}
}

// fakeGroup is a group over plain files holding the given control
// files' text.
func fakeGroup(t *testing.T, v2 bool, files map[string]string) *Group {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &Group{h: hierarchy{v2: v2}, dir: dir, dirFD: -1}
}

func TestUsageV1(t *testing.T) {
	files := map[string]string{
		"memory.limit_in_bytes":     "67108864\n",
		"memory.usage_in_bytes":     "50000000\n",
		"memory.max_usage_in_bytes": "60000000\n",
		"memory.stat":               v1Stat,
		"memory.oom_control":        v1OOMControl,
	}
	g := fakeGroup(t, false, files)
	u, err := g.Usage()
	want := Usage{Limit: 67108864, Current: 50000000, Peak: 60000000, Cache: 2294673408, Anon: 16261120}
	if err != nil || u != want {
		t.Errorf("Usage() = %+v, %v; want %+v", u, err, want)
	}
	if n, err := g.OOMKills(); n != 3 || err != nil {
		t.Errorf("OOMKills() = %d, %v; want 3", n, err)
	}

	// Without hierarchical accounting there are no total_ keys.
	files["memory.stat"] = "cache 1000\nrss 2000\n"
	files["memory.oom_control"] = "oom_kill_disable 0\nunder_oom 0\n"
	g = fakeGroup(t, false, files)
	if u, err := g.Usage(); err != nil || u.Cache != 1000 || u.Anon != 2000 {
		t.Errorf("Usage() without total_ = %+v, %v", u, err)
	}
	if _, err := g.OOMKills(); err == nil {
		t.Error("OOMKills() without an oom_kill line succeeded")
	}
}

func TestUsageV2(t *testing.T) {
	files := map[string]string{
		"memory.max":     "268435456\n",
		"memory.current": "160000000\n",
		"memory.peak":    "200000000\n",
		"memory.stat":    v2Stat,
		"memory.events":  v2Events,
	}
	g := fakeGroup(t, true, files)
	u, err := g.Usage()
	want := Usage{Limit: 268435456, Current: 160000000, Peak: 200000000, Cache: 52428800, Anon: 104857600}
	if err != nil || u != want {
		t.Errorf("Usage() = %+v, %v; want %+v", u, err, want)
	}
	if n, err := g.OOMKills(); n != 2 || err != nil {
		t.Errorf("OOMKills() = %d, %v; want 2", n, err)
	}
}

// TestSampledPeakV2: without memory.peak (Linux before 5.19), the peak
// is the largest memory.current that Usage saw since ResetPeak.
func TestSampledPeakV2(t *testing.T) {
	g := fakeGroup(t, true, map[string]string{
		"memory.max":     "max\n",
		"memory.current": "100\n",
		"memory.stat":    v2Stat,
	})
	current := func(text string) {
		if err := os.WriteFile(g.file("memory.current"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	peak := func(want int64) {
		t.Helper()
		u, err := g.Usage()
		if err != nil || u.Peak != want || u.Limit != math.MaxInt64 {
			t.Errorf("Usage() = %+v, %v; want peak %d, no limit", u, err, want)
		}
	}
	peak(100)
	current("300\n")
	peak(300)
	current("200\n")
	peak(300)
	if err := g.ResetPeak(); err != nil {
		t.Fatal(err)
	}
	peak(200)
	current("250\n")
	peak(250)
}
