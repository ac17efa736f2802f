package cgroup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
)

// Usage is a group's memory use, in bytes.
type Usage struct {
	// Limit is the group's limit; an unlimited group reads
	// math.MaxInt64 on v2 and the kernel's largest page multiple on v1.
	Limit int64 `json:"limit_bytes"`
	// Current is what the group uses now, page cache included. On v1
	// the kernel updates it in per-CPU batches, so it may lag by a few
	// hundred KiB.
	Current int64 `json:"current_bytes"`
	// Peak is the largest Current since the group's creation or the last
	// ResetPeak.
	Peak int64 `json:"peak_bytes"`
	// Cache is page cache: file data the kernel may reclaim when the
	// group nears its limit.
	Cache int64 `json:"cache_bytes"`
	// Anon is anonymous memory (heaps, stacks), which the group can shed
	// only to swap, if it has any.
	Anon int64 `json:"anon_bytes"`
}

// Usage reads the group's memory use.
func (g *Group) Usage() (Usage, error) {
	if g.h.v2 {
		return g.usageV2()
	}
	return g.usageV1()
}

func (g *Group) usageV1() (Usage, error) {
	var u Usage
	for _, v := range []struct {
		dst  *int64
		file string
	}{
		{&u.Limit, "memory.limit_in_bytes"},
		{&u.Current, "memory.usage_in_bytes"},
		{&u.Peak, "memory.max_usage_in_bytes"},
	} {
		n, err := readValue(g.file(v.file))
		if err != nil {
			return Usage{}, err
		}
		*v.dst = n
	}
	stat, err := readKeyed(g.file("memory.stat"))
	if err != nil {
		return Usage{}, err
	}
	// The total_ keys count the group's descendants too, and are absent
	// on kernels without hierarchical accounting.
	u.Cache, u.Anon = firstKey(stat, "total_cache", "cache"), firstKey(stat, "total_rss", "rss")
	return u, nil
}

func (g *Group) usageV2() (Usage, error) {
	var u Usage
	var err error
	if u.Limit, err = readValue(g.file("memory.max")); err != nil {
		return Usage{}, err
	}
	if u.Current, err = readValue(g.file("memory.current")); err != nil {
		return Usage{}, err
	}
	if u.Peak, err = g.peakV2(u.Current); err != nil {
		return Usage{}, err
	}
	stat, err := readKeyed(g.file("memory.stat"))
	if err != nil {
		return Usage{}, err
	}
	u.Cache, u.Anon = stat["file"], stat["anon"]
	return u, nil
}

// peakV2 reads memory.peak through the descriptor ResetPeak reset, or
// opens it afresh for the peak since the group's creation.
func (g *Group) peakV2(current int64) (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.sampled:
		g.sampledPeak = max(g.sampledPeak, current)
		return g.sampledPeak, nil
	case g.peak != nil:
		var buf [32]byte
		n, err := g.peak.ReadAt(buf[:], 0)
		if n == 0 {
			return 0, fmt.Errorf("cgroup: reading %s: %w", g.peak.Name(), err)
		}
		return parseValue(g.peak.Name(), buf[:n])
	}
	n, err := readValue(g.file("memory.peak"))
	if errors.Is(err, fs.ErrNotExist) {
		// Linux before 5.19 has no memory.peak: sample from now on.
		g.sampled, g.sampledPeak = true, current
		return current, nil
	}
	return n, err
}

// ResetPeak makes Usage's Peak count from now on.
//
// On v1 it resets the group's memory.max_usage_in_bytes, for every
// reader. On v2 (Linux 6.12 and later) the kernel resets memory.peak
// only for this Group value, so a parent and the child inside each
// keep their own. On v2 kernels before 6.12, where memory.peak cannot
// be reset, Peak becomes the largest Current that Usage reads from now
// on: sample once per step to get each step's peak, knowing that a
// spike between two samples goes unseen.
func (g *Group) ResetPeak() error {
	if !g.h.v2 {
		if err := writeFile(g.file("memory.max_usage_in_bytes"), "0"); err != nil {
			return fmt.Errorf("cgroup: resetting the peak: %w", err)
		}
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.sampled && g.peak == nil {
		f, err := os.OpenFile(g.file("memory.peak"), os.O_RDWR, 0)
		switch {
		case err == nil:
			g.peak = f
		case errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist):
			// Read-only before 6.12, absent before 5.19.
			g.sampled = true
		default:
			return fmt.Errorf("cgroup: %w", err)
		}
	}
	if g.peak != nil {
		// Any non-empty write resets the peak to the current usage.
		if _, err := g.peak.WriteString("reset\n"); err != nil {
			return fmt.Errorf("cgroup: resetting the peak: %w", err)
		}
		return nil
	}
	current, err := readValue(g.file("memory.current"))
	if err != nil {
		return err
	}
	g.sampledPeak = current
	return nil
}

// OOMKills is how many processes of the group the kernel's OOM killer
// has killed since the group's creation.
func (g *Group) OOMKills() (int64, error) {
	name := "memory.oom_control"
	if g.h.v2 {
		name = "memory.events"
	}
	keys, err := readKeyed(g.file(name))
	if err != nil {
		return 0, err
	}
	n, ok := keys["oom_kill"]
	if !ok {
		return 0, fmt.Errorf("cgroup: %s has no oom_kill line: use Linux 4.13 or later", g.file(name))
	}
	return n, nil
}

// firstKey is the value of the first of keys present in m, or 0.
func firstKey(m map[string]int64, keys ...string) int64 {
	for _, k := range keys {
		if n, ok := m[k]; ok {
			return n
		}
	}
	return 0
}

// readValue reads a control file holding one number, or "max".
func readValue(name string) (int64, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, fmt.Errorf("cgroup: %w", err)
	}
	return parseValue(name, b)
}

// parseValue parses the text of a control file holding one number, or
// "max" for no limit (v2).
func parseValue(name string, b []byte) (int64, error) {
	s := string(bytes.TrimSpace(b))
	if s == "max" {
		return math.MaxInt64, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("cgroup: %s holds %q, not a number: is it a memory control file?", name, s)
	}
	return n, nil
}

// readKeyed reads a control file of "key value" lines.
func readKeyed(name string) (map[string]int64, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	return parseKeyed(name, b)
}

// parseKeyed parses the "key value" lines of memory.stat,
// memory.events or memory.oom_control.
func parseKeyed(name string, b []byte) (map[string]int64, error) {
	m := make(map[string]int64)
	for line := range bytes.Lines(b) {
		fields := strings.Fields(string(line))
		if len(fields) == 0 {
			continue
		}
		var n int64
		var err error
		if len(fields) == 2 {
			n, err = strconv.ParseInt(fields[1], 10, 64)
		}
		if len(fields) != 2 || err != nil {
			return nil, fmt.Errorf("cgroup: %s has line %q, not \"key number\": is it a memory control file?", name, strings.TrimSpace(string(line)))
		}
		m[fields[0]] = n
	}
	return m, nil
}
