package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/suite"
)

// job is everything a child process is to do, which its parent writes as
// one JSON document to the child's stdin: the settings are parsed and
// checked once, in the parent, and written in one place, here. The
// workload's own settings go under its name ("micro": {...}), where the
// JVM worker reads the micro benchmarks'.
type job struct {
	Role string `json:"role"` // roleRun, or a role of the workload's own (suite.Roles)
	// Engine is the one engine the child runs, with its options as the
	// parent resolved them, typed: the child opens it with them, and the
	// JVM worker reads them.
	Engine   engine.Spec `json:"engine"`
	Dir      string      `json:"dir"`      // its data directory, created by the parent
	Progress string      `json:"progress"` // "bar" or "log"
	Workload string      `json:"workload"` // its registered name (suite.Names)
	Keep     bool        `json:"keep,omitempty"`
	// Memory is -memory: the child waits until it is in its memory
	// cgroup before it opens the engine.
	Memory       int64         `json:"memory_limit,omitempty"`
	Stall        time.Duration `json:"stall_ns"`
	MemorySample time.Duration `json:"memory_sample_ns,omitempty"`
	// Profile is -profile: where a Go child writes its profiles.
	Profile string `json:"profile,omitempty"`

	// Dataset is -dataset, the one setting of suite.Common that reaches
	// the child: the sizes and the seed are the workload's settings'.
	Dataset string `json:"dataset,omitempty"`
	// LatencyLog is -latency-log: the child keeps each part's whole
	// latency distribution for it.
	LatencyLog string `json:"latency_log,omitempty"`

	// Settings are the workload's own settings (suite.Config), which
	// the JSON holds under the workload's name: the job names each size
	// once, there.
	Settings json.RawMessage `json:"-"`
}

// newJob is the job of a child in role for engine name, in dir.
func newJob(s *settings, role, name, dir, progressMode string) job {
	settings, err := json.Marshal(s.workload)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return job{
		Role: role, Engine: s.specs[name], Dir: dir, Progress: progressMode, Workload: s.workload.Name(),
		Keep: s.keep, Memory: s.memory, Stall: s.stall, MemorySample: s.memorySample,
		Profile: s.profile, Dataset: s.common.Dataset, LatencyLog: s.latencyLog, Settings: settings,
	}
}

// jobFields are a job's fields without its methods.
type jobFields job

// MarshalJSON puts the workload's settings under its name, last.
func (j job) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(jobFields(j))
	if err != nil {
		return nil, err
	}
	name, err := json.Marshal(j.Workload)
	if err != nil {
		return nil, err
	}
	settings := j.Settings
	if settings == nil {
		settings = json.RawMessage("null")
	}
	b = append(append(append(b[:len(b)-1], ','), name...), ':')
	return append(append(b, settings...), '}'), nil
}

// UnmarshalJSON takes the workload's settings from under its name, and
// refuses a field a job does not have.
func (j *job) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	var name string
	if err := json.Unmarshal(fields["workload"], &name); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	settings := fields[name]
	delete(fields, name)
	rest, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode((*jobFields)(j)); err != nil {
		return err
	}
	j.Settings = settings
	return nil
}

// settings are the settings the job stands for.
func (j job) settings() (*settings, error) {
	w, err := suite.Lookup(j.Workload)
	if err != nil {
		return nil, fmt.Errorf("the job's workload: %w", err)
	}
	cfg, err := w.Decode(j.Settings)
	if err != nil {
		return nil, fmt.Errorf("the job's workload: %w", err)
	}
	return &settings{
		engines: []string{j.Engine.Name}, workload: cfg, common: suite.Common{Dataset: j.Dataset}, latencyLog: j.LatencyLog,
		specs: map[string]engine.Spec{j.Engine.Name: j.Engine},
		keep:  j.Keep, memory: j.Memory, stall: j.Stall, memorySample: j.MemorySample, profile: j.Profile,
		child: childFlags{role: j.Role, dir: j.Dir, progress: j.Progress},
	}, nil
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
	if err := json.NewDecoder(r).Decode(&j); err != nil {
		return nil, fmt.Errorf("read the job from the parent: %w", err)
	}
	return j.settings()
}
