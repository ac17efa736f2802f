// Package measure reads what a process costs the machine: CPU time of all
// its threads, the bytes it made the OS read from and write to storage,
// its peak memory and open files, and latency distributions; and the same
// for other processes an engine works in (Proc), and the work of a child
// process and its own children for a watchdog (Activity). It is shared by
// the workloads and the supervisor of their processes. Linux only: the
// figures come from getrusage and /proc.
package measure

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// Sample is the process's counters at one moment.
type Sample struct {
	// Time is when the sample was taken (monotonic).
	Time time.Time
	// User and Sys are the CPU time of every thread of the process so far,
	// including those of C libraries and the Go runtime (RUSAGE_SELF).
	User, Sys time.Duration
	// IO holds /proc/self/io; IOErr says why it is missing, if it is.
	IO    IO
	IOErr error
}

// IO is the storage traffic a process caused, from /proc/self/io.
type IO struct {
	// ReadBytes is what was fetched from storage; reads served by the page
	// cache do not count.
	ReadBytes int64 `json:"read_bytes"`
	// WriteBytes is what was sent, or will be sent, to storage: counted
	// when a page is dirtied.
	WriteBytes int64 `json:"write_bytes"`
	// CancelledWriteBytes is dirty data that never reached storage because
	// its file was truncated or deleted first (a short-lived LSM file).
	CancelledWriteBytes int64 `json:"cancelled_write_bytes"`
}

// Take samples the counters now. It fails only if getrusage does; a
// missing /proc/self/io is reported in IOErr.
func Take() (Sample, error) {
	s := Sample{Time: time.Now()}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return s, fmt.Errorf("measure: getrusage: %w", err)
	}
	s.User = time.Duration(ru.Utime.Nano())
	s.Sys = time.Duration(ru.Stime.Nano())
	s.IO, s.IOErr = ReadIO()
	return s, nil
}

// ReadIO reads /proc/self/io.
func ReadIO() (IO, error) { return readIO("/proc/self/io") }

// readIO reads a /proc/<pid>/io file.
func readIO(path string) (IO, error) {
	var io IO
	b, err := os.ReadFile(path)
	if err != nil {
		return io, fmt.Errorf("measure: %w", err)
	}
	found := 0
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		name, val, ok := bytes.Cut(sc.Bytes(), []byte(": "))
		if !ok {
			continue
		}
		var dst *int64
		switch string(name) {
		case "read_bytes":
			dst = &io.ReadBytes
		case "write_bytes":
			dst = &io.WriteBytes
		case "cancelled_write_bytes":
			dst = &io.CancelledWriteBytes
		default:
			continue
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(val)), 10, 64)
		if err != nil {
			return io, fmt.Errorf("measure: %s: %s: %w", path, name, err)
		}
		*dst = n
		found++
	}
	if found != 3 {
		return io, fmt.Errorf("measure: %s lacks read_bytes, write_bytes or cancelled_write_bytes", path)
	}
	return io, nil
}

// Delta is what happened between two samples.
type Delta struct {
	Wall      time.Duration
	User, Sys time.Duration
	// IO is the storage traffic in between; IOErr is set if either sample
	// lacked it.
	IO    IO
	IOErr error
}

// Sub returns what happened from earlier to s.
func (s Sample) Sub(earlier Sample) Delta {
	d := Delta{
		Wall: s.Time.Sub(earlier.Time),
		User: s.User - earlier.User,
		Sys:  s.Sys - earlier.Sys,
		IO: IO{
			ReadBytes:           s.IO.ReadBytes - earlier.IO.ReadBytes,
			WriteBytes:          s.IO.WriteBytes - earlier.IO.WriteBytes,
			CancelledWriteBytes: s.IO.CancelledWriteBytes - earlier.IO.CancelledWriteBytes,
		},
	}
	if d.IOErr = earlier.IOErr; d.IOErr == nil {
		d.IOErr = s.IOErr
	}
	if d.IOErr != nil {
		d.IO = IO{}
	}
	return d
}
