package crash

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Defaults of Config.
const (
	DefaultKills     = 10
	DefaultBatch     = 100
	DefaultValueSize = 100
	DefaultWindow    = 500 * time.Millisecond
)

// Upper bounds of Config: a check needs many small batches, not a few
// huge ones, and a writer killed within MaxWindow.
const (
	MaxKills     = 1000
	MaxBatch     = 100_000
	MaxValueSize = 1 << 20
	MaxWindow    = time.Minute
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
	// Window is how long after the writer has opened the engine it may be
	// killed: at a moment drawn uniformly from [0, Window). Default 500ms.
	Window time.Duration `json:"kill_window_ns"`
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
	}
	return nil
}

// KillDelay is when, after the writer of round (from 1) has opened the
// engine, it is killed: the same for the same seed and round.
func (c Config) KillDelay(round int) time.Duration {
	r := rand.New(rand.NewPCG(c.Seed, uint64(round)))
	return time.Duration(r.Int64N(int64(c.Window)))
}
