package harness

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/cgroup"
	"github.com/tsbench/storage/internal/measure"
)

// Cost is what a timed part of a workload cost the whole process, every
// thread (the engines' background threads included), and the processes
// the engine works in, if it has any (engine.Processes: the members of a
// local etcd cluster). Durations are in nanoseconds in JSON.
type Cost struct {
	// Wall is the part's elapsed time.
	Wall time.Duration `json:"wall_ns"`
	// CPUUser and CPUSys are the CPU time of every thread of the process
	// over the part (getrusage RUSAGE_SELF), plus that of the engine's
	// processes (/proc/<pid>/stat, exact to 10 ms each).
	CPUUser time.Duration `json:"cpu_user_ns"`
	CPUSys  time.Duration `json:"cpu_sys_ns"`
	// IO is the storage traffic the OS charged to the process over the
	// part, plus the engine's processes'; nil if /proc/self/io is
	// unavailable.
	IO *measure.IO `json:"io,omitempty"`
	// PeakRSS is the process's peak resident memory in bytes during the
	// part (VmHWM), mapped file pages included: LMDB's and bbolt's whole
	// store, LevelDB's tables; 0 if unavailable. The engine's processes
	// are not included. Memory tells its kinds apart.
	PeakRSS int64 `json:"peak_rss_bytes"`
	// Memory is the process's resident memory by kind, each kind's peak
	// sampled during the part: private (anonymous) memory apart from
	// mapped files, and the Go runtime's share of it; nil if
	// /proc/self/status lacks the kinds.
	Memory *measure.MemoryPeaks `json:"memory,omitempty"`
	// Processes is what the span measured of the engine's processes; nil
	// for an engine that works in this process.
	Processes *EngineProcesses `json:"processes,omitempty"`
	// Cgroup is the memory cgroup the process ran in (-memory): its
	// limit, its peak usage during the part (page cache included, which
	// the limit counts), and at the part's end its usage and how much of
	// it was page cache and anonymous memory. Nil without a cgroup.
	Cgroup *cgroup.Usage `json:"cgroup,omitempty"`
}

// memoryGroup is the memory cgroup this process runs in if the benchmark
// put it in one (-memory), nil otherwise.
var memoryGroup = sync.OnceValue(func() *cgroup.Group {
	g, err := cgroup.Self()
	if err != nil {
		return nil
	}
	return g
})

// EngineProcesses is what a span measured of the processes an engine
// works in (engine.Processes), beside the figures their CPU time and I/O
// were added to.
type EngineProcesses struct {
	// Count is how many the CPU time and I/O include: those that ran from
	// the span's start to its end.
	Count int `json:"count"`
	// CPUUser and CPUSys are their part of the Cost's CPU time.
	CPUUser time.Duration `json:"cpu_user_ns"`
	CPUSys  time.Duration `json:"cpu_sys_ns"`
	// PeakRSS is the sum of each one's peak resident memory during the
	// span: at least the peak of their total, which the kernel does not
	// record.
	PeakRSS int64 `json:"peak_rss_bytes"`
}

// Span measures one timed part: StartSpan before it, End after it. The
// workloads share it so that every part's CPU, I/O and memory are
// measured over the same kind of span.
type Span struct {
	before  measure.Sample
	peakErr error
	pids    []int
	procs   map[int]measure.Proc
	procErr error
	// groupErr is why the cgroup's peak could not be reset.
	groupErr error
	sampler  *sampler
}

// DefaultSamplePeriod is how often a span samples memory by kind unless
// SetSamplePeriod says otherwise: reading /proc/self/status and the Go
// runtime's metrics costs about 0.1 ms (BenchmarkSample), under a
// thousandth of a core at this rate.
const DefaultSamplePeriod = 200 * time.Millisecond

// samplePeriod is the period spans started from now on sample at;
// negative for none.
var samplePeriod atomic.Int64

// SetSamplePeriod sets how often the spans started from now on sample
// memory by kind (Cost.Memory): 0 for DefaultSamplePeriod, negative for
// never, which leaves Cost.Memory nil. It is how the sampling's own cost
// is measured, by a run with it beside one without.
func SetSamplePeriod(d time.Duration) { samplePeriod.Store(int64(d)) }

// Watch is what a timed part's one sampler goroutine does beside its
// memory samples, every ProgressPeriod, so that no suite runs a ticker of
// its own beside the span's: report Done to Progress (begun with Label
// and Total when the span starts), and call Tick (the over-time figures,
// open files). Nothing of it runs inside timed work.
type Watch struct {
	// Progress, if not nil, shows the part advancing; Label and Total
	// begin it (Progress.Begin), Done is read at each tick.
	Progress Progress
	Label    string
	Total    int64
	Done     func() int64
	// Tick, if not nil, is called with the time at each tick, from the
	// sampler's goroutine.
	Tick func(now time.Time)
}

// sampler is a span's one goroutine: it samples memory by kind every
// memory period (none if 0) and does the watch's work every
// ProgressPeriod, until stopped.
type sampler struct {
	quit, done chan struct{}
	// unwatch and unwatched stop the watch's work alone: the part's
	// figures are in, while memory is still sampled until End.
	unwatch, unwatched chan struct{}
	memory             time.Duration
	watch              Watch
	peaks              measure.MemoryPeaks
	err                error
}

// startSampler starts sampling memory every memory period (none if 0) and
// w's work every ProgressPeriod; nil if there is nothing to do.
func startSampler(memory time.Duration, w Watch) *sampler {
	watching := w.Progress != nil || w.Tick != nil
	if memory <= 0 && !watching {
		return nil
	}
	sm := &sampler{quit: make(chan struct{}), done: make(chan struct{}), unwatch: make(chan struct{}), unwatched: make(chan struct{}), memory: memory, watch: w}
	if w.Progress != nil {
		w.Progress.Begin(w.Label, w.Total)
	}
	period := memory
	if watching && (period <= 0 || ProgressPeriod < period) {
		period = ProgressPeriod
	}
	if memory > 0 {
		sm.sample()
	}
	go func() {
		defer close(sm.done)
		t := time.NewTicker(period)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-sm.quit:
				return
			case <-sm.unwatch:
				watching = false
				close(sm.unwatched)
				if memory <= 0 {
					return
				}
			case now := <-t.C:
				// Half a period early counts as due: a tick comes a little late.
				if memory > 0 && now.Sub(last) >= memory-period/2 {
					sm.sample()
					last = now
				}
				if !watching {
					continue
				}
				if w.Tick != nil {
					w.Tick(now)
				}
				if w.Progress != nil && w.Done != nil {
					w.Progress.Update(w.Done())
				}
			}
		}
	}()
	return sm
}

func (sm *sampler) sample() {
	m, err := measure.ReadMemory()
	if err != nil {
		sm.err = err
		return
	}
	sm.peaks.Add(m, measure.GoMemory())
}

// stopWatch ends the watch's work: no Tick after it returns, and the
// part's progress ends with the final count.
func (sm *sampler) stopWatch() {
	select {
	case <-sm.unwatched:
		return // stopped already
	default:
	}
	select {
	case sm.unwatch <- struct{}{}:
		<-sm.unwatched
	case <-sm.done: // stopped already
	}
	if p := sm.watch.Progress; p != nil {
		if sm.watch.Done != nil {
			p.Update(sm.watch.Done())
		}
		p.End()
	}
}

// stop ends the sampling with a last sample and returns the peaks (nil
// without memory samples).
func (sm *sampler) stop() (*measure.MemoryPeaks, error) {
	sm.stopWatch()
	select {
	case <-sm.done:
	default:
		close(sm.quit)
		<-sm.done
	}
	if sm.memory <= 0 {
		return nil, nil
	}
	sm.sample()
	if sm.err != nil {
		return nil, sm.err
	}
	return &sm.peaks, nil
}

// StartSpan restarts the peak RSS count and samples the process's
// counters, and those of pids, the processes the engine works in
// (engine.Processes), if any. It fails only if getrusage does; a figure
// that cannot be read is reported by End.
func StartSpan(pids ...int) (*Span, error) { return StartWatchedSpan(Watch{}, pids...) }

// StartWatchedSpan is StartSpan whose sampler also does w's work until
// StopWatch or End: one goroutine samples everything of the part.
func StartWatchedSpan(w Watch, pids ...int) (*Span, error) {
	s := &Span{peakErr: measure.ResetPeakRSS(), pids: pids}
	if g := memoryGroup(); g != nil {
		s.groupErr = g.ResetPeak()
	}
	for _, pid := range pids {
		if err := measure.ResetPeakRSSOf(pid); err != nil && s.peakErr == nil {
			s.peakErr = err
		}
	}
	s.procs, s.procErr = measure.ReadProcs(pids)
	var err error
	if s.before, err = measure.Take(); err == nil {
		period := time.Duration(samplePeriod.Load())
		switch {
		case period == 0:
			period = DefaultSamplePeriod
		case period < 0:
			period = 0 // none
		}
		s.sampler = startSampler(period, w) // End stops it
	}
	return s, err
}

// StopWatch ends the watch's work (StartWatchedSpan), ending its progress
// with the final count, while memory is still sampled until End: where a
// part's figures are in before its span ends (an engine closed after a
// benchmark, charged to its CPU and I/O).
func (s *Span) StopWatch() {
	if s.sampler != nil {
		s.sampler.stopWatch()
	}
}

// EnginePIDs returns the processes db works in (engine.Processes), nil
// for an engine that works in this process: StartSpan's pids.
func EnginePIDs(db engine.Engine) []int {
	if p, ok := engine.BackendAs[engine.Processes](db); ok {
		return p.PIDs()
	}
	return nil
}

// Start is when the span started.
func (s *Span) Start() time.Time { return s.before.Time }

// Elapsed is the time since the span started.
func (s *Span) Elapsed() time.Duration { return time.Since(s.before.Time) }

// End measures the span from its start to now. warn is told of each
// figure that is missing or less precise than documented, with a kind
// ("rss", "io", "processes") so that a caller can report each once.
func (s *Span) End(warn func(kind string, err error)) Cost {
	var c Cost
	if s.peakErr != nil {
		warn("rss", s.peakErr)
	}
	after, err := measure.Take()
	if s.sampler != nil {
		if peaks, merr := s.sampler.stop(); merr == nil {
			c.Memory = peaks
		} else {
			warn("memory", merr)
		}
	}
	if err != nil {
		c.Wall = s.Elapsed()
		warn("cpu", err)
		return c
	}
	d := after.Sub(s.before)
	c.Wall, c.CPUUser, c.CPUSys = d.Wall, d.User, d.Sys
	if d.IOErr == nil {
		c.IO = &d.IO
	} else {
		warn("io", d.IOErr)
	}
	if rss, err := measure.PeakRSS(); err == nil {
		c.PeakRSS = rss
	} else {
		warn("rss", err)
	}
	if len(s.pids) > 0 {
		s.addProcesses(&c, warn)
	}
	if g := memoryGroup(); g != nil {
		if u, err := g.Usage(); err == nil && s.groupErr == nil {
			c.Cgroup = &u
		} else {
			warn("cgroup", errors.Join(s.groupErr, err))
		}
	}
	return c
}

// addProcesses adds the engine's processes' CPU time and I/O to c and
// sums their peak memory. A process that exited or started during the
// span (a member killed and restarted) is left out, since only part of
// its work is known, and warn says so.
func (s *Span) addProcesses(c *Cost, warn func(kind string, err error)) {
	after, err := measure.ReadProcs(s.pids)
	if err = errors.Join(s.procErr, err); err != nil {
		warn("processes", fmt.Errorf("the engine's processes that exited are not counted: %w", err))
	}
	sum, n := measure.SumProcs(s.procs, after)
	c.Processes = &EngineProcesses{Count: n, CPUUser: sum.User, CPUSys: sum.Sys}
	c.CPUUser += sum.User
	c.CPUSys += sum.Sys
	if c.IO != nil {
		io := *c.IO
		io.ReadBytes += sum.IO.ReadBytes
		io.WriteBytes += sum.IO.WriteBytes
		io.CancelledWriteBytes += sum.IO.CancelledWriteBytes
		c.IO = &io
	}
	for pid := range after {
		if _, ok := s.procs[pid]; !ok {
			continue
		}
		if rss, err := measure.PeakRSSOf(pid); err == nil {
			c.Processes.PeakRSS += rss
		} else {
			warn("rss", err)
		}
	}
}
