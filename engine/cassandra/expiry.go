package cassandra

import (
	"context"
	"fmt"
	"time"

	"github.com/tsbench/storage/engine"
)

// open is openContext with engine.Options.Expiry: every insert then
// carries Cassandra's TTL (USING TTL), and reads stop seeing a row once
// it has expired; compactions drop it after gc_grace_seconds.
func open(ctx context.Context, dir string, opts engine.Options, o Options) (*DB, error) {
	d, err := openContext(ctx, dir, opts, o)
	if err != nil {
		return nil, err
	}
	d.ttl = ttlOf(opts.Expiry)
	d.statements()
	return d, nil
}

// ttlOf is the TTL in seconds of an insert that must stay readable at
// least expiry after it, 0 for none: one second more, since Cassandra
// counts a cell's end from the second of the write, rounded down, and
// hides the cell once that second has come, up to a second early.
func ttlOf(expiry time.Duration) int64 {
	if expiry == 0 {
		return 0
	}
	return int64(expiry/time.Second) + 1
}

// usingTTL is the clause of an insert with d's TTL, "" without one.
func (d *DB) usingTTL() string {
	if d.ttl == 0 {
		return ""
	}
	return fmt.Sprintf(" USING TTL %d", d.ttl)
}
