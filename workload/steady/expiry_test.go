package steady

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// A test engine that says it expires entries and loses every write: as
// if it expired each at once, long before the expiry it was opened with.
// Only by name: TestRunEveryEngine runs the real ones.
func init() {
	engine.Register("steady-expires-at-once", engine.Driver{
		Open:       func(string, engine.Options) (engine.Backend, error) { return forgetful{memory.New()}, nil },
		Expiry:     true,
		OnlyByName: true,
	})
}

type forgetful struct{ *memory.DB }

func (f forgetful) NewBatch() engine.Batch { return forgetBatch{f.DB.NewBatch()} }

type forgetBatch struct{ engine.Batch }

func (b forgetBatch) Commit() error {
	b.Reset()
	return nil
}

// ttlConfig is cfg with the ttl method: an expiry of 1s of wall time
// (20s of data time at 20 times wall time), which the run outlasts.
func ttlConfig(cfg Config) Config {
	cfg.Method, cfg.Duration, cfg.Speedup, cfg.Retention = MethodTTL, 2500*time.Millisecond, 20, 20*time.Second
	return cfg
}

// checkNoExpiry fails unless err is the one-line refusal of an engine
// without expiry.
func checkNoExpiry(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, engine.ErrNoExpiry) || strings.Contains(err.Error(), "\n") {
		t.Errorf("got %v, want one line wrapping engine.ErrNoExpiry", err)
	}
}

// TestTTLRefused: the ttl method refuses an engine without expiry in one
// line naming the methods that work, an engine opened without the
// expiry it needs, and a retention shorter than a second of wall time.
func TestTTLRefused(t *testing.T) {
	cfg := ttlConfig(smallConfig())
	db, err := engine.Open("pebble", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := Run(db, t.TempDir(), cfg)
	checkNoExpiry(t, err)
	if res != nil || !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "use -retention-method delete, bucket or shards") {
		t.Errorf("Run on pebble = %v; want the methods that work named", err)
	}
	_, err = Run(memory.New(), t.TempDir(), cfg)
	checkNoExpiry(t, err)

	bdb, err := engine.Open("badger", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if _, err := Run(bdb, t.TempDir(), cfg); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "open it with engine.Options.Expiry 1s, not 0s") {
		t.Errorf("Run on badger without an expiry = %v; want the expiry to open it with", err)
	}
	cfg.Retention = 10 * time.Second
	if err := cfg.Validate(); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "raise -retention to 20s or lower -speedup") {
		t.Errorf("Validate with half a second of wall time = %v", err)
	}
}

// TestTTLCatchesEarlyExpiry checks that the ttl checks can fail: an
// engine that drops points within its expiry leaves them missing.
func TestTTLCatchesEarlyExpiry(t *testing.T) {
	cfg := ttlConfig(smallConfig())
	cfg.Duration = 1500 * time.Millisecond
	db, err := engine.Open("steady-expires-at-once", t.TempDir(), &engine.Options{Expiry: cfg.Expiry()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := Run(db, t.TempDir(), cfg)
	if !errors.Is(err, ErrVerification) || res.Final == nil || res.Final.Missing == 0 || res.WrongAnswers() == 0 {
		t.Fatalf("Run = %v, final %+v; want missing points found", err, res.Final)
	}
}
