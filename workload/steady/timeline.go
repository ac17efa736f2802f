package steady

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
)

// Interval is one slice of the run's wall time (Result.Intervals): what
// was ingested and queried in it, how long that took, and the state of
// the store at its end.
type Interval struct {
	// Start is when the interval began, from the run's start.
	Start time.Duration `json:"start_ns"`
	// Length is its wall time as measured.
	Length time.Duration `json:"length_ns"`
	// Points is how many points were committed in it, and PointsPerSec
	// that over Length: the ingest rate achieved.
	Points       int64   `json:"points"`
	PointsPerSec float64 `json:"points_per_sec"`
	// Write is the distribution of the batches committed in it, each
	// from its intended start on the schedule; nil if none was.
	Write *measure.Percentiles `json:"write_latency,omitempty"`
	// Queries counts the queries that ended in it, and Query their
	// latency distribution, every kind together.
	Queries int64                `json:"queries"`
	Query   *measure.Percentiles `json:"query_latency,omitempty"`
	// Backlog is the points the schedule had asked for by its end and
	// were not committed: a growing backlog is an engine that cannot keep
	// the rate (late batches count while they wait).
	Backlog int64 `json:"backlog_points"`
	// DataTime is the data time of the latest committed round, from the
	// first point's, and Cutoff the data time before which retention had
	// deleted everything.
	DataTime time.Duration `json:"data_time_ns"`
	Cutoff   time.Duration `json:"cutoff_ns"`
	// DiskUsed is the engine's directory (every shard's) as
	// diskusage.Usage.Used counts it, at the interval's end.
	DiskUsed int64 `json:"disk_used_bytes"`
	// LiveBytes is the key and value bytes of the points committed and
	// not expired, and SpaceAmp DiskUsed over it.
	LiveBytes int64   `json:"live_bytes"`
	SpaceAmp  float64 `json:"space_amplification"`
	// WriteAmp is the bytes the process wrote to storage since the start
	// (/proc/self/io) over the key and value bytes committed since.
	WriteAmp float64 `json:"write_amplification"`
	// RSS is the process's resident memory at the interval's end.
	RSS int64 `json:"rss_bytes"`
	// EngineMetrics is what the engine's counters rose by in the
	// interval (engine.ReadMetrics, summed over shards), such as stalls
	// and compact_bytes; nil for an engine that reports none.
	EngineMetrics engine.Metrics `json:"engine_metrics,omitempty"`
}

// Stalled reports whether the engine says it stalled or slowed writes in
// the interval.
func (iv Interval) Stalled() bool {
	return iv.EngineMetrics[engine.MetricStalls] > 0 || iv.EngineMetrics[engine.MetricStallTime] > 0
}

// sampler closes an interval every Config.Interval.
type sampler struct {
	r        *runner
	begin    time.Time
	points   int64 // committed when the interval began
	ioStart  int64
	metrics  map[uint64]engine.Metrics // last reading per shard
	write    *measure.Histogram
	query    *measure.Histogram
	queries  int64
	out      []Interval
	disk     diskusage.Usage
	warnedIO bool
}

func newSampler(r *runner) *sampler {
	s := &sampler{r: r, begin: r.start, metrics: map[uint64]engine.Metrics{},
		write: measure.NewHistogram(), query: measure.NewHistogram()}
	if io, err := measure.ReadIO(); err == nil {
		s.ioStart = io.WriteBytes
	}
	s.readMetrics()
	return s
}

// readMetrics is what the engines' counters rose by since the last
// reading; a shard's first reading counts from its open.
func (s *sampler) readMetrics() engine.Metrics {
	var sum engine.Metrics
	seen := map[uint64]bool{}
	s.r.store.engines(func(n uint64, db engine.Engine) {
		m, err := engine.ReadMetrics(db)
		if err != nil {
			return
		}
		seen[n] = true
		before, ok := s.metrics[n]
		if !ok {
			before = engine.Metrics{}
			for k := range m {
				before[k] = 0
			}
		}
		d := m.Since(before)
		s.metrics[n] = m
		for k, v := range d {
			if sum == nil {
				sum = engine.Metrics{}
			}
			sum[k] += v
		}
	})
	for n := range s.metrics {
		if !seen[n] {
			delete(s.metrics, n)
		}
	}
	return sum
}

// roll closes the interval at now.
func (s *sampler) roll(now time.Time) {
	r, m := s.r, s.r.m
	for _, w := range r.writers {
		w.hist.take(s.write)
	}
	var queries int64
	for _, rd := range r.readers {
		for k := range rd.hist {
			rd.hist[k].take(s.query)
		}
		queries += rd.count.Load()
	}
	committed := r.points.Load()
	iv := Interval{Start: s.begin.Sub(r.start), Length: now.Sub(s.begin), Points: committed - s.points, Queries: queries - s.queries}
	if secs := iv.Length.Seconds(); secs > 0 {
		iv.PointsPerSec = float64(iv.Points) / secs
	}
	if p := s.write.Percentiles(); p.Count > 0 {
		iv.Write = &p
	}
	if p := s.query.Percentiles(); p.Count > 0 {
		iv.Query = &p
	}
	s.write.Reset()
	s.query.Reset()
	scheduled := min(r.batches, int64(now.Sub(r.start).Seconds()*r.cfg.Rate)/m.batch) * m.batch
	iv.Backlog = max(0, scheduled-committed)
	if wm := r.wm.Load(); wm > 0 {
		iv.DataTime = time.Duration(r.front(wm) - m.origin)
	}
	done := r.doneCut.Load()
	iv.Cutoff = time.Duration(done - m.origin)
	if u, err := diskusage.Measure(r.dir); err == nil {
		iv.DiskUsed, s.disk = u.Used, u
	}
	live := committed - min(committed, r.expired(done))
	if logical, n := r.logical.Load(), r.points.Load(); n > 0 {
		iv.LiveBytes = int64(float64(live) * float64(logical) / float64(n))
		if io, err := measure.ReadIO(); err == nil && logical > 0 {
			iv.WriteAmp = float64(io.WriteBytes-s.ioStart) / float64(logical)
		} else if err != nil && !s.warnedIO {
			s.warnedIO = true
			fmt.Fprintf(r.log, "steady: no write amplification: %v\n", err)
		}
	}
	if iv.LiveBytes > 0 {
		iv.SpaceAmp = float64(iv.DiskUsed) / float64(iv.LiveBytes)
	}
	iv.RSS = rss()
	iv.EngineMetrics = s.readMetrics()
	s.out = append(s.out, iv)
	s.begin, s.points, s.queries = now, committed, queries
}

// rss is the process's resident memory now, 0 if unknown.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
