package crash

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
	"github.com/tsbench/storage/workload/suite"
)

func init() { suite.Register("crash", crashSuite{}) }

// crashSuite is the crash check, the workload crash. The engine's child
// process runs the rounds: it starts a writer process, kills it at the
// seeded moment (or cuts the power under it, -fault powercut: see
// powerMount), and starts a reader process that reopens the store and
// reads it back, -kills times in the same directory. Under sync batch
// unless -sync says none.
type crashSuite struct{}

func (crashSuite) Info() suite.Info {
	return suite.Info{About: "the crash check",
		Shared: []string{suite.FlagBatch, suite.FlagSeed}, Single: true, Sync: engine.SyncBatch, ResultKey: "crash"}
}

// Defaults are the Config's defaults but for the batch and seed, which
// are the command's (Configure).
func (crashSuite) Defaults() Config {
	return Config{Kills: DefaultKills, Fault: DefaultFault, ValueSize: DefaultValueSize, Window: DefaultWindow, CutBatches: DefaultCutBatches, Kill: DefaultKill}
}

// Flags set the config's own fields.
func (crashSuite) Flags(fs *flag.FlagSet, s *Config) {
	fs.IntVar(&s.Kills, "kills", s.Kills, "how many `times` each engine's writer is killed (or the power cut under it), at most 1000")
	fs.StringVar(&s.Kill, "kill", s.Kill, "`what` a kill strikes: process (the writer's process, and with it a local cluster it started: every member at once) or member (one member of etcd's or Cassandra's local cluster, while the writer goes on through the others; restarted once it missed some batches, then read back alone)")
	fs.DurationVar(&s.Window, "kill-window", s.Window, "with -fault kill, how long after the writer's first acknowledged batch it may be killed: at a seeded moment within it; longer for an engine whose commits are slow (a cluster's), at most 1m")
	fs.StringVar(&s.Fault, "fault", s.Fault, "the `name` of what strikes the writer: kill (SIGKILL, a process crash), powercut (its data on a FUSE file system that drops what was not synced; needs root and /dev/fuse), powercut-torn (a power cut that also keeps a random half of the 4 KiB blocks written over synced data) or powercut-journal (a power cut on a file system that, as ext4's journal does, makes every new or renamed file's name durable with any file's fsync)")
}

// Configure sets the batch's default, DefaultBatch, copies the batch and
// seed in and checks the config.
func (crashSuite) Configure(s *Config, c *suite.Common, given suite.Given) error {
	if !given("batch") {
		c.Batch = DefaultBatch
	}
	switch {
	case s.Kills < 1 || s.Kills > MaxKills:
		return suite.Invalidf("-kills %d: use 1 to %d", s.Kills, MaxKills)
	case s.Window <= 0 || s.Window > MaxWindow:
		return suite.Invalidf("-kill-window %v: use more than 0 and at most %v", s.Window, MaxWindow)
	case c.Batch > MaxBatch:
		return suite.Invalidf("-batch %d is above the maximum of %d entries per batch of the crash check", c.Batch, MaxBatch)
	case !slices.Contains(Faults, s.Fault):
		return suite.Invalidf("-fault %q: use %s", s.Fault, strings.Join(Faults, ", "))
	case !slices.Contains(Kills, s.Kill):
		return suite.Invalidf("-kill %q: use %s", s.Kill, strings.Join(Kills, " or "))
	case s.Kill == KillMember && s.Fault != FaultKill:
		return suite.Invalidf("-kill member kills a member, it does not cut its power: drop -fault %s", s.Fault)
	}
	s.Batch, s.Seed = int(c.Batch), c.Seed
	return suite.Invalid(s.Validate(), ErrInvalidConfig)
}

// Prepare makes sure, for a power cut, that FUSE works here, and
// detaches the mounts a killed run left in path.
func (crashSuite) Prepare(s Config, path string) error {
	if !s.PowerCut() {
		return nil
	}
	return checkPowercut(s.Fault, path)
}

// Run runs the rounds. A round that cannot run (the writer cannot open
// the engine) ends the check with what was found so far.
func (crashSuite) Run(cfg Config, e *suite.Engine) (res *Result, err error) {
	res = &Result{Config: cfg}
	t := Tally{Stats: Stats{LossAllowed: cfg.PowerCut() && e.Options.Sync != engine.SyncBatch}}
	p := e.Progress
	p.SetUnit("kills")
	if cfg.Kill == KillMember {
		p.Begin("kill a member and restart it", int64(cfg.Kills))
		err = memberCheck(e, cfg, &t, &res.Header, func(i int, r Round) {
			p.Update(int64(i))
			fmt.Fprintf(p, "kill %d: %v", i, r)
		})
		p.End()
		res.Crash = t.Finish()
		return res, err
	}
	// Processes the writer started (etcd's members) become this
	// process's children when it dies, so that the reader can wait
	// until they are gone too.
	if err := supervise.BecomeSubreaper(); err != nil {
		return res, fmt.Errorf("become the subreaper of the writer's processes: %w", err)
	}
	round, what := killRound, "kill"
	if cfg.PowerCut() {
		m, err := newPowerMount(e.Dir, cfg)
		if err != nil {
			return res, err
		}
		defer func() { err = errors.Join(err, m.close()) }()
		round = m.round
		what = "cut"
	}
	p.SetUnit(what + "s")
	p.Begin(what+" and reopen", int64(cfg.Kills))
	for i := 1; i <= cfg.Kills; i++ {
		var r Round
		if r, err = round(e, cfg, i); err != nil {
			err = fmt.Errorf("%s %d: %w", what, i, err)
			break
		}
		t.Add(r)
		p.Update(int64(i))
		fmt.Fprintf(p, "%s %d: %v", what, i, r)
	}
	p.End()
	res.Crash = t.Finish()
	res.Options = e.Effective
	return res, err
}

// Roles of the crash check's processes (suite.Roles).
const (
	roleWriter = "crash-writer" // commit batches until killed
	roleReader = "crash-reader" // reopen and read back
)

func (crashSuite) Role(role string, cfg Config, e *suite.Engine) error {
	switch role {
	case roleWriter:
		return runWriter(e, cfg)
	case roleReader:
		return runReader(e, cfg)
	}
	return fmt.Errorf("%w %q", suite.ErrNoRole, role)
}

// Start is an empty result: a crash check whose engine process died
// reports no parameters.
func (crashSuite) Start(Config, map[string]any) *Result {
	return new(Result)
}

func (crashSuite) Fields(res *Result) suite.Fields {
	return suite.Fields{Header: &res.Header, Err: &res.Error}
}

func (crashSuite) Failure(res *Result) string { return Failure(res) }

func (crashSuite) Report(runID string, env harness.Environment, rs []*Result) report.Renderer {
	return &Report{Schema: results.SchemaVersion, RunID: runID, Env: env, Results: rs}
}
