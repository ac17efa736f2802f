package measure

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
)

// Memory is a process's resident memory by kind, from /proc/PID/status:
// what VmRSS and its peak VmHWM lump together.
type Memory struct {
	// Private is RssAnon: heap, stacks, an engine's caches and memtables;
	// what the machine must have for the process.
	Private int64
	// File is RssFile: pages of files mapped into the process (LMDB's and
	// bbolt's whole store, LevelDB's tables), page cache the kernel can
	// drop and read again.
	File int64
	// Shared is RssShmem: shared memory and tmpfs pages mapped.
	Shared int64
}

// ReadMemory reads this process's Memory.
func ReadMemory() (Memory, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return Memory{}, fmt.Errorf("measure: %w", err)
	}
	var m Memory
	found := 0
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		key, rest, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		var field *int64
		switch string(key) {
		case "RssAnon":
			field = &m.Private
		case "RssFile":
			field = &m.File
		case "RssShmem":
			field = &m.Shared
		default:
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
		if err != nil {
			return m, fmt.Errorf("measure: %s: %w", key, err)
		}
		*field = kb << 10
		found++
	}
	if found < 3 {
		return m, fmt.Errorf("measure: /proc/self/status lacks RssAnon, RssFile or RssShmem (kernel before 4.5?)")
	}
	return m, nil
}

// goMetrics are the runtime/metrics samples GoMemory reads.
var goMetrics = []string{"/memory/classes/total:bytes", "/memory/classes/heap/released:bytes", "/memory/classes/heap/free:bytes"}

// GoMemory is the memory the Go runtime holds and has not returned to
// the OS: heap objects, heap fragments, stacks and runtime structures.
// It is most of the process's Memory.Private in a Go process: in one
// whose engine is written in C it is the harness's share (with the
// binding's buffers); with an engine in Go it holds the engine's memory
// too. The runtime counts what it mapped, not what is resident: a fresh
// process reports about 4 MiB here with 0.7 MiB private in all (runtime
// metadata and profiling tables mapped but not yet touched), so it is an
// upper bound on the runtime's resident part, and MemoryPeaks caps each
// sample at Private.
func GoMemory() int64 {
	s := make([]metrics.Sample, len(goMetrics))
	for i, name := range goMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s[i].Value.Uint64())
	}
	return v(0) - v(1) - v(2)
}

// MemoryPeaks are the highest of each kind of memory sampled over a
// span. Sampled, so a peak shorter than the sampling period can be
// missed, unlike the kernel's own VmHWM.
type MemoryPeaks struct {
	// Private, File and Shared are Memory's kinds at their peaks, each
	// sampled apart.
	Private int64 `json:"peak_private_bytes"`
	File    int64 `json:"peak_file_bytes"`
	Shared  int64 `json:"peak_shmem_bytes"`
	// Go is the peak of GoMemory, each sample capped at Private: the Go
	// runtime's part of Private, at most.
	Go int64 `json:"peak_go_bytes"`
	// Samples is how many samples the peaks are of.
	Samples int `json:"samples"`
}

// Add takes one sample into p.
func (p *MemoryPeaks) Add(m Memory, goBytes int64) {
	p.Private, p.File, p.Shared = max(p.Private, m.Private), max(p.File, m.File), max(p.Shared, m.Shared)
	p.Go = max(p.Go, min(goBytes, m.Private))
	p.Samples++
}
