package steady

import (
	"errors"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
	"github.com/tsbench/storage/engine/etcd"
)

// TestRunEveryEngine runs every retention method on every registered
// engine, briefly, with late batches, points out of order and churn:
// every answer and the final check must agree with the model. etcd's
// local cluster has one member: what the workload checks does not depend
// on how many replicate it (engine/etcd's tests run three), and each
// member is a process of its own. Shards of etcd are left out: each
// would start a cluster. An engine without expiry must refuse the ttl
// method's in one line.
func TestRunEveryEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("opens every engine many times")
	}
	for _, name := range engine.AllNames() {
		for _, method := range Methods {
			t.Run(name+"/"+string(method), func(t *testing.T) {
				// Side by side: a run mostly waits for its rate's next
				// batch.
				t.Parallel()
				if name == "etcd" && method == MethodShards {
					t.Skip("a cluster per shard")
				}
				dir := t.TempDir()
				cfg := smallConfig()
				// Half a second with one reader: a reader's first queries
				// go through every kind (pick), and the readers' CPU is
				// most of this test's.
				cfg.Duration, cfg.Method, cfg.Readers = 500*time.Millisecond, method, 1
				cfg.Late, cfg.LateWindow, cfg.OutOfOrder, cfg.Churn, cfg.ChurnEvery = 0.05, 5*time.Second, 0.3, 0.1, 10*time.Second
				opts := &engine.Options{}
				if name == "etcd" {
					opts.Engine = &etcd.Options{Members: 1}
				}
				if method == MethodTTL {
					cfg = ttlConfig(cfg)
					opts.Expiry = cfg.Expiry()
				}
				open := func(d string) (engine.Engine, error) { return engine.Open(name, d, opts) }
				var db engine.Engine
				if method == MethodShards {
					cfg.Open = open
				} else {
					var err error
					db, err = open(dir)
					if errors.Is(err, engine.ErrNoExpiry) {
						checkNoExpiry(t, err)
						return
					}
					if err != nil {
						t.Skipf("cannot open %s here: %v", name, err)
					}
					defer db.Close()
				}
				res, err := Run(db, dir, cfg)
				checkClean(t, res, err)
			})
		}
	}
}
