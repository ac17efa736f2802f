package cassandra

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/storage/engine"
)

// metricsTimeout bounds one node's answer to a metrics request: a few
// JMX reads, milliseconds unless the node is stalled.
const metricsTimeout = 10 * time.Second

// Metrics implements engine.MetricsReporter through the probe on each
// node's JMX port, summed over the nodes: compactions pending
// (engine.MetricPendingCompactions), writes dropped for being late
// (engine.MetricDroppedWrites), the JVM heap in use
// (engine.MetricHeapBytes) and the table's off-heap memory
// (engine.MetricOffHeapBytes). A given cluster without Options.JMX
// reports none.
func (d *DB) Metrics() (engine.Metrics, error) {
	jmx := d.JMX()
	if len(jmx) == 0 {
		return engine.Metrics{}, nil
	}
	p, err := d.probe()
	if err != nil {
		return nil, err
	}
	answers := make([]string, len(jmx))
	errs := make([]error, len(jmx))
	var wg sync.WaitGroup
	for i, addr := range jmx {
		wg.Go(func() { answers[i], errs[i] = p.run("metrics", addr, d.l.Keyspace, table, metricsTimeout) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m := engine.Metrics{}
	for i, a := range answers {
		for _, field := range strings.Fields(a) {
			name, value, _ := strings.Cut(field, "=")
			v, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: metrics of the node at %s: %q is not NAME=NUMBER", ErrJMX, jmx[i], field)
			}
			m[name] += v
		}
	}
	return m, nil
}
