package bench

import (
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
	"github.com/tsbench/storage/workload/micro"
)

var (
	num           = flag.Int64("num", 100_000, "entries loaded for micro reads, overwrites and deletes")
	keyType       = flag.String("key", string(micro.KeyStr16), "micro key type: int4, str16 or ts24")
	valueSize     = flag.Int("value-size", micro.DefaultValueSize, "micro value size in bytes")
	order         = flag.String("order", string(micro.OrderRandom), "order of micro write and readKey: seq or random")
	noCompression = flag.Bool("no-compression", false, "turn off the engines' block compression")
	cacheSize     = flag.Int64("cache-size", 0, "engines' block cache in bytes (default engine.DefaultCacheSize)")
	engines       = flag.String("engines", "", "comma-separated engines to run (default every registered engine but those that run only when named: engine.AllNames)")
)

// seed is fixed so that every engine and every run writes the same data.
const seed = 1

// engineNames are the engines to benchmark, in name order: -engines, or
// those of engine.AllNames.
func engineNames(b *testing.B) []string {
	all := engine.Names()
	if *engines == "" {
		return engine.AllNames()
	}
	var names []string
	for _, n := range strings.Split(*engines, ",") {
		if !slices.Contains(all, n) {
			b.Fatalf("-engines: unknown engine %q: choose from %s", n, strings.Join(all, ", "))
		}
		names = append(names, n)
	}
	return names
}

// options are the engine options every engine gets.
func options() engine.Options {
	return engine.Options{DisableCompression: *noCompression, CacheSize: *cacheSize}
}

// microConfig is the micro benchmarks' configuration from the flags.
func microConfig(b *testing.B) micro.Config {
	kt, err := micro.ParseKeyType(*keyType)
	if err != nil {
		b.Fatal(err)
	}
	o, err := micro.ParseOrder(*order)
	if err != nil {
		b.Fatal(err)
	}
	cfg := micro.Config{Num: *num, KeyType: kt, Order: o, ValueSize: *valueSize, Seed: seed}
	if err := cfg.Validate(); err != nil {
		b.Fatal(err)
	}
	return cfg.WithDefaults()
}
