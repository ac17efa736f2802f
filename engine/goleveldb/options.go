package goleveldb

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are goleveldb's own settings, the [goleveldb] table of a config
// file. The shared engine.Options (cache, write buffer, compression, open
// files, bloom filter, sync) are mapped separately; see the package doc.
type Options struct {
	// BlockSize is the minimum uncompressed size in bytes of a table data
	// block, at most 64 MiB. Default 4096.
	BlockSize int `toml:"block_size"`
	// CompactionTableSize is the size in bytes of the tables compactions
	// write, at most 1 GiB. Default 2 MiB.
	CompactionTableSize int `toml:"compaction_table_size"`
	// CompactionTotalSize is the base of the level size limits: level L may
	// hold CompactionTotalSize×10^L bytes (so 100 MiB for level 1) before
	// it is compacted into the next. At most 1 GiB. Default 10 MiB.
	CompactionTotalSize int `toml:"compaction_total_size"`
	// CompactionL0Trigger is the number of level-0 tables that starts a
	// compaction into level 1, at most 1000. Default 4.
	CompactionL0Trigger int `toml:"compaction_l0_trigger"`
	// WriteL0SlowdownTrigger is the number of level-0 tables at which each
	// write is delayed by 1 ms, at most 1000. Default 8.
	WriteL0SlowdownTrigger int `toml:"write_l0_slowdown_trigger"`
	// WriteL0PauseTrigger is the number of level-0 tables at which writes
	// stop until compactions catch up, at most 1000. Default 12.
	WriteL0PauseTrigger int `toml:"write_l0_pause_trigger"`
}

// Defaults of Options, the same as goleveldb's own.
const (
	DefaultBlockSize              = 4096
	DefaultCompactionTableSize    = 2 << 20
	DefaultCompactionTotalSize    = 10 << 20
	DefaultCompactionL0Trigger    = 4
	DefaultWriteL0SlowdownTrigger = 8
	DefaultWriteL0PauseTrigger    = 12
)

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	// Far beyond a sensible setting; goleveldb allocates a block's buffer
	// up front and multiplies the sizes per level.
	err := defaults.Fill("goleveldb",
		defaults.In("block_size", &o.BlockSize, DefaultBlockSize, 1, 64<<20),
		defaults.In("compaction_table_size", &o.CompactionTableSize, DefaultCompactionTableSize, 1, 1<<30),
		defaults.In("compaction_total_size", &o.CompactionTotalSize, DefaultCompactionTotalSize, 1, 1<<30),
		defaults.In("compaction_l0_trigger", &o.CompactionL0Trigger, DefaultCompactionL0Trigger, 1, 1000),
		defaults.In("write_l0_slowdown_trigger", &o.WriteL0SlowdownTrigger, DefaultWriteL0SlowdownTrigger, 1, 1000),
		defaults.In("write_l0_pause_trigger", &o.WriteL0PauseTrigger, DefaultWriteL0PauseTrigger, 1, 1000),
	)
	if err != nil {
		return o, err
	}
	if o.WriteL0SlowdownTrigger < o.CompactionL0Trigger || o.WriteL0PauseTrigger < o.WriteL0SlowdownTrigger {
		return o, fmt.Errorf("%w: goleveldb: need compaction_l0_trigger (%d) <= write_l0_slowdown_trigger (%d) <= write_l0_pause_trigger (%d); reorder them", engine.ErrInvalidOptions, o.CompactionL0Trigger, o.WriteL0SlowdownTrigger, o.WriteL0PauseTrigger)
	}
	return o, nil
}
