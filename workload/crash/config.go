package crash

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Defaults of Config.
const (
	DefaultKills      = 10
	DefaultBatch      = 100
	DefaultValueSize  = 100
	DefaultWindow     = 500 * time.Millisecond
	DefaultFault      = FaultKill
	DefaultCutBatches = 200
	DefaultKill       = KillProcess
)

// What a kill strikes (Config.Kill).
const (
	// KillProcess kills the writer process, and with it every server
	// process it started: a whole local cluster.
	KillProcess = "process"
	// KillMember kills one member of the engine's local cluster
	// (engine.Members) while the writer goes on through the others, then
	// restarts it and reads what it holds on its own.
	KillMember = "member"
)

// Kills lists what a kill may strike, KillProcess first.
var Kills = []string{KillProcess, KillMember}

// Faults that strike the writer (Config.Fault).
const (
	// FaultKill kills the writer with SIGKILL: a process crash, which the
	// OS and its page cache survive.
	FaultKill = "kill"
	// FaultPowercut cuts the power under the writer: its data directory is
	// a powercut file system (internal/powercut), and a cut drops what the
	// engine wrote but did not sync.
	FaultPowercut = "powercut"
	// FaultTorn is FaultPowercut with torn writes: the cut also keeps a
	// random half of the pending 4 KiB blocks written over synced data,
	// as a device losing power in the middle of a flush may.
	FaultTorn = "powercut-torn"
	// FaultJournal is FaultPowercut on a file system that journals names
	// as ext4 does: any file's fsync also makes every pending create,
	// rename and unlink durable, so an engine that never syncs a
	// directory keeps its new files' names.
	FaultJournal = "powercut-journal"
)

// Faults lists the faults, FaultKill first.
var Faults = []string{FaultKill, FaultPowercut, FaultTorn, FaultJournal}

// Upper bounds of Config: a check needs many small batches, not a few
// huge ones, and a writer killed within MaxWindow.
const (
	MaxKills     = 1000
	MaxBatch     = 100_000
	MaxValueSize = 1 << 20
	MaxWindow    = time.Minute
	// MaxCutBatches keeps a round's writer to a few minutes.
	MaxCutBatches = 100_000
)

// Config is one crash check. Every field must be set (Validate); the
// defaults above are what benchmark-storage uses.
type Config struct {
	// Kills is how many times the writer is killed. Default 10.
	Kills int `json:"kills"`
	// Batch is the number of entries per committed batch. Default 100.
	Batch int `json:"batch"`
	// ValueSize is the bytes of each value, at least 12 (the key is
	// repeated in it). Default 100.
	ValueSize int `json:"value_size"`
	// Seed picks the values and the moments of the kills.
	Seed uint64 `json:"seed"`
	// Window is how long after the writer's first acknowledged batch it
	// may be killed: at a moment drawn uniformly from [0, Window), so
	// that an engine whose first commit is slow (a cluster's, seconds
	// after it opened) is killed while it writes, not before. Default
	// 500ms.
	Window time.Duration `json:"kill_window_ns"`
	// Fault is what strikes the writer: FaultKill, FaultPowercut,
	// FaultTorn or FaultJournal. Default FaultKill.
	Fault string `json:"fault"`
	// CutBatches bounds how many batches a writer gets acknowledged
	// before a power cut (CutAt). Default 200.
	CutBatches int `json:"cut_batches"`
	// Kill is what a FaultKill kills: KillProcess or KillMember. Default
	// KillProcess.
	Kill string `json:"kill,omitempty"`
}

// Validate reports the first field out of its range, with the fix.
func (c Config) Validate() error {
	switch {
	case c.Kills < 1 || c.Kills > MaxKills:
		return fmt.Errorf("%w: %d kills: use 1 to %d", ErrInvalidConfig, c.Kills, MaxKills)
	case c.Batch < 1 || c.Batch > MaxBatch:
		return fmt.Errorf("%w: batches of %d entries: use 1 to %d", ErrInvalidConfig, c.Batch, MaxBatch)
	case c.ValueSize < keySize || c.ValueSize > MaxValueSize:
		return fmt.Errorf("%w: values of %d bytes: use %d to %d", ErrInvalidConfig, c.ValueSize, keySize, MaxValueSize)
	case c.Window <= 0 || c.Window > MaxWindow:
		return fmt.Errorf("%w: kill window %v: use more than 0 and at most %v", ErrInvalidConfig, c.Window, MaxWindow)
	case !slices.Contains(Faults, c.Fault):
		return fmt.Errorf("%w: fault %q: use %s", ErrInvalidConfig, c.Fault, strings.Join(Faults, ", "))
	case c.CutBatches < 1 || c.CutBatches > MaxCutBatches:
		return fmt.Errorf("%w: cuts after up to %d batches: use 1 to %d", ErrInvalidConfig, c.CutBatches, MaxCutBatches)
	case !slices.Contains(Kills, c.Kill):
		return fmt.Errorf("%w: kill %q: use %s", ErrInvalidConfig, c.Kill, strings.Join(Kills, " or "))
	case c.Kill == KillMember && c.Fault != FaultKill:
		return fmt.Errorf("%w: a member is killed, not its power cut: use the kill fault with kill member", ErrInvalidConfig)
	}
	return nil
}

// PowerCut reports whether the fault is a power cut rather than a kill.
func (c Config) PowerCut() bool {
	return c.Fault == FaultPowercut || c.Fault == FaultTorn || c.Fault == FaultJournal
}

// KillDelay is when, after the writer of round (from 1) has opened the
// engine (or, with KillMember, after the round began), it is killed: the
// same for the same seed and round.
func (c Config) KillDelay(round int) time.Duration {
	r := rand.New(rand.NewPCG(c.Seed, uint64(round)))
	return time.Duration(r.Int64N(int64(c.Window)))
}

// Victim is which of members the kill of round (from 1) strikes under
// KillMember: the same for the same seed and round.
func (c Config) Victim(round, members int) int {
	r := rand.New(rand.NewPCG(c.Seed, uint64(round)|1<<62))
	return r.IntN(members)
}

// CutAt is when, in round (from 1), the power is cut: once acks batches
// were acknowledged, drawn uniformly from [1, CutBatches], and then, in
// half of the rounds, into times the last batch's duration later, into
// drawn from (0, 1], so that the cut strikes in the middle of the next
// batch's commit rather than as it starts. The same for the same seed
// and round.
func (c Config) CutAt(round int) (acks int64, into float64) {
	// Another stream than KillDelay's, so a kill and a cut check of the
	// same seed do not strike in step.
	r := rand.New(rand.NewPCG(c.Seed, uint64(round)|1<<63))
	acks = 1 + r.Int64N(int64(c.CutBatches))
	if r.IntN(2) == 1 {
		into = 1 - r.Float64() // (0, 1]
	}
	return acks, into
}
