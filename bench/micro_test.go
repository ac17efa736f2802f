package bench

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/workload/micro"
)

// BenchmarkMicro runs every micro benchmark on every engine through
// micro.Session, the code the benchmark-storage tool runs.
func BenchmarkMicro(b *testing.B) {
	cfg := microConfig(b)
	for _, name := range engineNames(b) {
		b.Run("engine="+name, func(b *testing.B) {
			s, err := micro.NewSession(micro.OpenerFor(name, options()), filepath.Join(b.TempDir(), "db"), cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for _, op := range micro.Names() {
				size := cfg.ValueSize
				if op == micro.Fill100K {
					size = micro.LargeValueSize
				}
				b.Run(fmt.Sprintf("op=%s/key=%s/value=%d", op, cfg.KeyType, size), func(b *testing.B) {
					if err := s.Prepare(op); err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					res, err := s.Run(op, int64(b.N))
					b.StopTimer()
					if err != nil {
						b.Fatal(err)
					}
					// ns/op is replaced by engine time alone.
					for _, m := range res.Metrics() {
						b.ReportMetric(m.Value, m.Unit)
					}
				})
			}
		})
	}
}
