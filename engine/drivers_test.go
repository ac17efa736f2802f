package engine_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// Test-only drivers. The memory engine is registered here, and only here,
// to exercise Open; it does not persist, which these tests do not need.
func init() {
	engine.Register("testmem", engine.Driver{
		Open:       testmem.open,
		NewOptions: func() any { return new(testmemOptions) },
		Version:    func() string { return "1.0" },
	})
	engine.Register("testplain", engine.Driver{
		Open: func(string, engine.Options) (engine.Backend, error) { return memory.New(), nil },
	})
	engine.Register("testfail", engine.Driver{
		Open: func(string, engine.Options) (engine.Backend, error) { return nil, errTestFail },
	})
	// An engine that all leaves out (AllNames).
	engine.Register("testbyname", engine.Driver{
		Open:       func(string, engine.Options) (engine.Backend, error) { return memory.New(), nil },
		OnlyByName: true,
	})
	// An engine run in a process of its own, in a group (TestProcessEngines).
	engine.Register("testprocess", engine.Driver{
		Process: func() (string, []string, error) { return "/bin/true", nil, nil },
		Group:   "testgroup",
	})
}

var errTestFail = errors.New("testfail: cannot open")

// testmemOptions is the test driver's own options table.
type testmemOptions struct {
	Level int    `toml:"level"`
	Mode  string `toml:"mode"`
}

// testmemResolves counts testmemOptions' resolutions.
var testmemResolves atomic.Int64

// Resolve fills in the default level, 3, and refuses a negative one.
func (o testmemOptions) Resolve(engine.Options) (any, error) {
	testmemResolves.Add(1)
	if o.Level < 0 {
		return nil, fmt.Errorf("%w: level %d is negative", engine.ErrInvalidOptions, o.Level)
	}
	if o.Level == 0 {
		o.Level = 3
	}
	return o, nil
}

var testmem testmemDriver

// testmemDriver records the options its last Open received.
type testmemDriver struct {
	mu   sync.Mutex
	last engine.Options
}

func (d *testmemDriver) open(_ string, o engine.Options) (engine.Backend, error) {
	d.mu.Lock()
	d.last = o
	d.mu.Unlock()
	return memory.New(), nil
}

func (d *testmemDriver) lastOptions() engine.Options {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last
}
