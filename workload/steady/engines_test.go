package steady

import (
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
)

// TestRunEveryEngine runs every retention method on every registered
// engine, briefly, with late batches, points out of order and churn:
// every answer and the final check must agree with the model. Shards of
// etcd are left out: each would start a cluster of three members.
func TestRunEveryEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("opens every engine many times")
	}
	for _, name := range engine.AllNames() {
		for _, method := range Methods {
			t.Run(name+"/"+string(method), func(t *testing.T) {
				if name == "etcd" && method == MethodShards {
					t.Skip("a cluster per shard")
				}
				dir := t.TempDir()
				cfg := smallConfig()
				cfg.Duration, cfg.Method = time.Second, method
				cfg.Late, cfg.LateWindow, cfg.OutOfOrder, cfg.Churn, cfg.ChurnEvery = 0.05, 5*time.Second, 0.3, 0.1, 10*time.Second
				open := func(d string) (engine.Engine, error) { return engine.Open(name, d, nil) }
				var db engine.Engine
				if method == MethodShards {
					cfg.Open = open
				} else {
					var err error
					if db, err = open(dir); err != nil {
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
