package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/micro"
)

// job is everything a child process is to do, which its parent writes as
// one JSON document to the child's stdin: the settings are parsed and
// checked once, in the parent, and written in one place, here.
type job struct {
	Role     string `json:"role"`     // roleRun, roleCrashWriter or roleCrashReader
	Engine   string `json:"engine"`   // the one engine the child runs
	Dir      string `json:"dir"`      // its data directory, created by the parent
	Progress string `json:"progress"` // "bar" or "log"
	Workload string `json:"workload"` // workloadSeries, workloadMicro, workloadMixed or workloadCrash

	// Options are the engine's options, resolved in the parent, as
	// engine.Effective spells them (and results record them).
	Options map[string]any `json:"options"`
	Keep    bool           `json:"keep,omitempty"`
	// Memory is -memory: the child waits until it is in its memory
	// cgroup before it opens the engine.
	Memory int64         `json:"memory_limit,omitempty"`
	Stall  time.Duration `json:"stall_ns"`

	Points        int64         `json:"points"`
	Series        int64         `json:"series"`
	Batch         int64         `json:"batch"`
	Seed          uint64        `json:"seed"`
	Settle        bool          `json:"settle,omitempty"`
	ReuseIterator bool          `json:"reuse_iterator,omitempty"`
	Interval      time.Duration `json:"interval_ns,omitempty"`
	MemorySample  time.Duration `json:"memory_sample_ns,omitempty"`
	Kills         int           `json:"kills,omitempty"`
	Fault         string        `json:"fault,omitempty"`
	Dataset       string        `json:"dataset,omitempty"`

	Micro *microJob   `json:"micro,omitempty"`
	Mixed *mixedFlags `json:"mixed,omitempty"`
	// Steady is the steady-state workload's flags.
	Steady *steadyFlags `json:"steady,omitempty"`
}

// microJob is microFlags as a job holds them.
type microJob struct {
	Benchmarks []string      `json:"benchmarks"`
	Num        int64         `json:"num"`
	ValueSize  int64         `json:"value_size"`
	Key        micro.KeyType `json:"key"`
	Order      micro.Order   `json:"order"`
	Ratio      float64       `json:"compression_ratio"`
}

// newJob is the job of a child in role for engine name, in dir.
func newJob(s *settings, role, name, dir, progressMode string) job {
	j := job{
		Role: role, Engine: name, Dir: dir, Progress: progressMode, Workload: s.workload,
		Options: s.effective[name], Keep: s.keep, Memory: s.memory, Stall: s.stall,
		Points: s.points, Series: s.series, Batch: s.batch, Seed: s.seed, Settle: s.settle, Kills: s.kills, Fault: s.fault,
		ReuseIterator: s.reuseIterator, Interval: s.interval, MemorySample: s.memorySample, Dataset: s.dataset,
	}
	if m := s.micro; m.on() {
		j.Micro = &microJob{m.benchmarks, m.num, m.valueSize, m.key, m.order, m.ratio}
	}
	if s.workload == workloadMixed {
		m := s.mixed
		j.Mixed = &m
	}
	if s.workload == workloadSteady {
		j.Steady = &s.steady
	}
	return j
}

// settings are the settings the job stands for.
func (j job) settings() (*settings, error) {
	opts, err := engine.FromEffective(j.Engine, j.Options)
	if err != nil {
		return nil, fmt.Errorf("the job's options: %w", err)
	}
	s := &settings{
		engines: []string{j.Engine}, workload: j.Workload,
		options: map[string]engine.Options{j.Engine: opts}, effective: map[string]map[string]any{j.Engine: j.Options},
		keep: j.Keep, memory: j.Memory, stall: j.Stall,
		points: j.Points, series: j.Series, batch: j.Batch, seed: j.Seed, settle: j.Settle, kills: j.Kills, fault: j.Fault,
		reuseIterator: j.ReuseIterator, interval: j.Interval, memorySample: j.MemorySample, dataset: j.Dataset,
		child: childFlags{role: j.Role, dir: j.Dir, progress: j.Progress},
	}
	if m := j.Micro; m != nil {
		s.micro = microFlags{m.Benchmarks, m.Num, m.ValueSize, m.Key, m.Order, m.Ratio}
	}
	if j.Mixed != nil {
		s.mixed = *j.Mixed
	}
	if j.Steady != nil {
		s.steady = *j.Steady
	}
	return s, nil
}

// encode is the job's JSON document.
func (j job) encode() []byte {
	b, err := json.Marshal(j)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// readJob reads the job a parent wrote to stdin.
func readJob(r io.Reader) (*settings, error) {
	var j job
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("read the job from the parent: %w", err)
	}
	return j.settings()
}
