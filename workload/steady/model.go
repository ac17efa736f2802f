package steady

import (
	"math"
	"time"

	"github.com/tsbench/storage/workload/points"
)

// model defines every point of a run as a pure function of its index, as
// points.Generator does for the other workloads, so that writers stream
// points in constant memory and readers check any point they read without
// having stored it. Point i is slot i mod Series in round i / Series:
//
//	series    the id slot j holds in round r: generation*Series + j, where
//	          the generation counts the times churn replaced the slot
//	timestamp Epoch + r*step (every live series has a point each round)
//	sequence  i + 1 (in series-major keys)
//	value     points.Generator.Value(i + 1)
//
// Churn replaces churnPer slots every churnEvery rounds, in a fixed cyclic
// order (slot 0 first), so a slot's generation is a division, and a
// series id's life a pair of rounds.
type model struct {
	series     int64
	batch      int64
	step       uint64 // data time between rounds, ns
	churnEvery int64  // rounds between replacements; 0 without churn
	churnPer   int64  // slots replaced each time
	values     points.Generator
	layout     points.Layout
	width      uint64 // data time of a bucket, shard and retention step, ns
	// origin is the data time the run starts from: the first round's,
	// points.Epoch, or an imported file's earliest timestamp.
	origin uint64
}

func newModel(c Config, values *points.Source) model {
	m := model{
		series: c.Series, batch: c.Batch, step: uint64(c.step()),
		values: points.Generator{Series: c.Series, Seed: c.Seed, Values: values},
		width:  uint64(c.BucketWidth), origin: points.Epoch,
	}
	if c.Method == MethodBucket {
		m.layout = points.Layout{BucketWidth: m.width}
	}
	if c.Churn > 0 {
		m.churnEvery = max(1, int64(uint64(c.ChurnEvery)/m.step))
		m.churnPer = max(1, int64(math.Round(c.Churn*float64(c.Series))))
	}
	return m
}

// ts is the timestamp of round r.
func (m model) ts(r int64) uint64 { return points.Epoch + uint64(r)*m.step }

// roundAt is the first round whose timestamp is at or after ts.
func (m model) roundAt(ts uint64) int64 {
	if ts <= points.Epoch {
		return 0
	}
	return int64((ts - points.Epoch + m.step - 1) / m.step)
}

// replaced is how many replacements churn has made by round r, cyclic
// from slot 0.
func (m model) replaced(r int64) int64 {
	if m.churnPer == 0 {
		return 0
	}
	return r / m.churnEvery * m.churnPer
}

// generation is how many times churn has replaced slot j by round r.
func (m model) generation(j, r int64) int64 {
	t := m.replaced(r)
	if t <= j {
		return 0
	}
	return (t - j + m.series - 1) / m.series
}

// id is the series slot j holds in round r.
func (m model) id(j, r int64) uint64 { return uint64(m.generation(j, r)*m.series + j) }

// life is the rounds [from, to) in which series id gets points.
func (m model) life(id uint64) (from, to int64) {
	g, j := int64(id)/m.series, int64(id)%m.series
	if m.churnPer == 0 {
		if g == 0 {
			return 0, math.MaxInt64
		}
		return 0, 0
	}
	// The first round of generation g: the replacement number
	// (g-1)*series+j, which happens at epoch that/churnPer + 1.
	start := func(g int64) int64 {
		if g == 0 {
			return 0
		}
		return ((g-1)*m.series+j)/m.churnPer*m.churnEvery + m.churnEvery
	}
	return start(g), start(g + 1)
}

// point is the key fields of point i.
func (m model) point(i int64) (id, ts, seq uint64) {
	r, j := i/m.series, i%m.series
	return m.id(j, r), m.ts(r), uint64(i) + 1
}

// committedRounds is how many rounds of slot j lie below point index wm:
// the rounds r with r*series + j < wm.
func (m model) committedRounds(j, wm int64) int64 {
	if wm <= j {
		return 0
	}
	return (wm - j + m.series - 1) / m.series
}

// ids calls f with every series id that has points in rounds [from, to),
// in increasing order (the final check reads them in key order).
func (m model) ids(from, to int64, f func(id uint64)) {
	if to <= from {
		return
	}
	// Generation g of slot j has points there if generation(j, from) <= g
	// <= generation(j, to-1): with t(r) the replacements by round r, if
	// t(from) - g*series <= j < t(to-1) - (g-1)*series.
	tFrom, tTo := m.replaced(from), m.replaced(to-1)
	for g := m.generation(m.series-1, from); g <= m.generation(0, to-1); g++ {
		for j := max(0, tFrom-g*m.series); j < min(m.series, tTo-(g-1)*m.series); j++ {
			f(uint64(g*m.series + j))
		}
	}
}

// hash is a uniform number in [0, 1) for x, one stream per salt.
func (m model) hash(salt, x uint64) float64 {
	g := points.Generator{Seed: m.values.Seed ^ salt*0x9e3779b97f4a7c15}
	return float64(uint64(g.Value(x))>>11) / (1 << 53)
}

// Salts of the decisions hash makes.
const (
	saltLate = iota + 1
	saltDelay
	saltOrder
	saltSwap
)

// lateness is how many batch slots batch b is sent after its own, 0 if
// it is on time: a fraction late of the batches, each by 1 to maxDelay.
func (m model) lateness(b int64, late float64, maxDelay int64) int64 {
	if late == 0 || m.hash(saltLate, uint64(b)) >= late {
		return 0
	}
	return 1 + int64(m.hash(saltDelay, uint64(b))*float64(maxDelay))
}

// batchData is the data time one batch covers.
func (m model) batchData() time.Duration {
	return time.Duration(m.step * uint64(m.batch) / uint64(m.series))
}
