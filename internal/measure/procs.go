package measure

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/<pid>/stat: USER_HZ,
// 100 on every Linux architecture Go supports. So another process's CPU
// time is exact to 10 ms, not to the microsecond getrusage gives for this
// one.
const clockTick = 10 * time.Millisecond

// Proc is another process's counters at one moment, from /proc/<pid>:
// the CPU time of all its threads and its storage traffic. An engine that
// works in other processes (the members of a local etcd cluster) has its
// work counted there, not in this process's getrusage.
type Proc struct {
	User, Sys time.Duration
	IO        IO
}

// ReadProc reads the counters of process pid.
func ReadProc(pid int) (Proc, error) {
	var p Proc
	// utime and stime are fields 14 and 15.
	f, err := statFields(pid, 15)
	if err != nil {
		return p, err
	}
	for j, dst := range []*time.Duration{&p.User, &p.Sys} {
		n, err := strconv.ParseInt(string(f[11+j]), 10, 64)
		if err != nil {
			return p, fmt.Errorf("measure: /proc/%d/stat: %w", pid, err)
		}
		*dst = time.Duration(n) * clockTick
	}
	p.IO, err = readIO(fmt.Sprintf("/proc/%d/io", pid))
	return p, err
}

// StartTime is when process pid started, in clock ticks since boot
// (field 22 of /proc/PID/stat): with the pid, it names the process for as
// long as it lives, since a later process given the same pid started
// later.
func StartTime(pid int) (int64, error) {
	f, err := statFields(pid, 22)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(string(f[19]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("measure: /proc/%d/stat: %w", pid, err)
	}
	return n, nil
}

// statFields reads /proc/PID/stat and returns its fields from field 3
// (the state) on, of which there must be enough to hold field last.
func statFields(pid, last int) ([][]byte, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, fmt.Errorf("measure: process %d: %w", pid, err)
	}
	// The command name, field 2, is in parentheses and may hold spaces
	// and parentheses itself: the fields after it follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, fmt.Errorf("measure: /proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < last-2 {
		return nil, fmt.Errorf("measure: /proc/%d/stat: %d fields after the name, want at least %d", pid, len(f), last-2)
	}
	return f, nil
}

// Sub returns what process p did from earlier to p.
func (p Proc) Sub(earlier Proc) Proc {
	return Proc{
		User: p.User - earlier.User,
		Sys:  p.Sys - earlier.Sys,
		IO: IO{
			ReadBytes:           p.IO.ReadBytes - earlier.IO.ReadBytes,
			WriteBytes:          p.IO.WriteBytes - earlier.IO.WriteBytes,
			CancelledWriteBytes: p.IO.CancelledWriteBytes - earlier.IO.CancelledWriteBytes,
		},
	}
}

// ReadProcs reads the counters of each process in pids; a process it
// cannot read (it exited) is left out and named in err.
func ReadProcs(pids []int) (map[int]Proc, error) {
	procs := make(map[int]Proc, len(pids))
	var errs []error
	for _, pid := range pids {
		p, err := ReadProc(pid)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		procs[pid] = p
	}
	return procs, errors.Join(errs...)
}

// SumProcs adds up what each process did from earlier to later, counting
// only those present in both: a process that started or exited in between
// has no whole figure. n is how many were counted.
func SumProcs(earlier, later map[int]Proc) (sum Proc, n int) {
	for pid, l := range later {
		e, ok := earlier[pid]
		if !ok {
			continue
		}
		d := l.Sub(e)
		sum.User += d.User
		sum.Sys += d.Sys
		sum.IO.ReadBytes += d.IO.ReadBytes
		sum.IO.WriteBytes += d.IO.WriteBytes
		sum.IO.CancelledWriteBytes += d.IO.CancelledWriteBytes
		n++
	}
	return sum, n
}

// Children lists this process's child processes now, from
// /proc/self/task/*/children; none where /proc does not say.
func Children() []int { return children("self") }

// ChildrenOf lists the child processes of process pid now, as Children
// does for this one.
func ChildrenOf(pid int) []int { return children(strconv.Itoa(pid)) }

func children(proc string) []int {
	var out []int
	tasks, _ := os.ReadDir("/proc/" + proc + "/task")
	for _, t := range tasks {
		b, _ := os.ReadFile("/proc/" + proc + "/task/" + t.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// Activity is the work a process and its live children have done so
// far: CPU time, user and system, each one's reaped children's included,
// and bytes read from and written to storage. Two readings a while apart
// tell a process that works from one that is stuck.
type Activity struct {
	CPU time.Duration
	IO  int64
}

// ReadActivity reads the Activity of process pid. It fails only when pid
// itself cannot be read (it is gone); a child that exits meanwhile, or
// I/O counters that cannot be read, count nothing.
func ReadActivity(pid int) (Activity, error) {
	a, err := readActivity(pid)
	if err != nil {
		return a, err
	}
	for _, c := range ChildrenOf(pid) {
		ca, _ := readActivity(c)
		a.CPU += ca.CPU
		a.IO += ca.IO
	}
	return a, nil
}

// readActivity reads one process's CPU time, its reaped children's
// included, and storage I/O.
func readActivity(pid int) (Activity, error) {
	var a Activity
	// utime, stime, cutime and cstime are fields 14 to 17.
	f, err := statFields(pid, 17)
	if err != nil {
		return a, err
	}
	for _, v := range f[11:15] {
		n, _ := strconv.ParseInt(string(v), 10, 64)
		a.CPU += time.Duration(n) * clockTick
	}
	if io, err := readIO(fmt.Sprintf("/proc/%d/io", pid)); err == nil {
		a.IO = io.ReadBytes + io.WriteBytes
	}
	return a, nil
}
