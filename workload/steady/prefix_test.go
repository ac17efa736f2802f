package steady

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// A test engine ordered only within prefixes of 8 bytes, as Cassandra's
// partitions are: engine.Open refuses its iterators, SetBounds and
// DeleteRanges across prefixes (engine.ErrUnordered). It keeps its keys
// in memory's global order, so only the ranges it takes differ. It says
// it has an expiry and honours none, which the ttl method's checks allow
// (every expired point lingers). Only by name.
func init() {
	engine.Register("steady-prefix-ordered", engine.Driver{
		Open:       func(string, engine.Options) (engine.Backend, error) { return memory.New(), nil },
		Limits:     engine.Limits{MinKeySize: seriesPrefix, OrderedPrefix: seriesPrefix},
		Expiry:     true,
		OnlyByName: true,
	})
}

// TestRunOrderedWithinPrefix runs every retention method, with late
// batches, points out of order and churn, on an engine ordered only
// within a series' prefix: the reads, the retention's deletes and the
// final check must each stay within one prefix and find what the model
// expects.
func TestRunOrderedWithinPrefix(t *testing.T) {
	for _, method := range Methods {
		t.Run(string(method), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := smallConfig()
			cfg.Method, cfg.Late, cfg.LateWindow, cfg.OutOfOrder, cfg.Churn, cfg.ChurnEvery = method, 0.1, 5*time.Second, 0.3, 0.1, 10*time.Second
			var opts *engine.Options
			if method == MethodTTL {
				cfg = ttlConfig(cfg)
				opts = &engine.Options{Expiry: cfg.Expiry()}
			}
			open := func(d string) (engine.Engine, error) { return engine.Open("steady-prefix-ordered", d, opts) }
			var db engine.Engine
			if method == MethodShards {
				cfg.Open = open
			} else {
				var err error
				if db, err = open(dir); err != nil {
					t.Fatal(err)
				}
				defer db.Close()
			}
			res, err := Run(db, dir, cfg)
			checkClean(t, res, err)
		})
	}
}

// widePrefix is an engine ordered within prefixes longer than a series
// id, within which no series can be read.
type widePrefix struct{ engine.Engine }

func (widePrefix) Limits() engine.Limits { return engine.Limits{OrderedPrefix: 16} }

func TestRunRefusesWidePrefix(t *testing.T) {
	res, err := Run(widePrefix{memory.New()}, t.TempDir(), smallConfig())
	if res != nil || !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "give the engine a prefix length of 8") {
		t.Errorf("Run = %v, want a refusal naming the prefix length", err)
	}
}
