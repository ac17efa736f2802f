// Package steady is the workload a time-series database lives in: writers
// ingest at a fixed rate, retention deletes expired data as fast as it is
// written, some points arrive late or out of order, series are replaced
// (churn), and readers query all the while, every answer checked.
//
//	res, err := steady.Run(db, dir, steady.Config{Duration: time.Minute, Rate: 100_000, Readers: 1,
//		Series: 1000, Batch: 1000, Speedup: 20, Retention: 10 * time.Minute, Seed: 1})
//	fmt.Print(steady.Report{Env: harness.CollectEnvironment(dir), Results: []*steady.Result{res}})
//
// # Schedule
//
// The run is a fixed schedule of Rate*Duration/Batch batches: batch b is
// due at start + b*Batch/Rate and goes to writer b mod Writers. A writer
// waits for a batch's time, generates it and commits it, and measures its
// latency from the time it was due, not from when it was sent: a writer
// held up by a slow commit sends the next batches at once, and their
// waiting counts (coordinated omission corrected, as YCSB's
// measurement.interval=intended). A writer still behind the schedule half
// the duration (at least 5 s) after its end gives up, and the rest counts
// as unsent.
//
// # Data
//
// Every live series gets a point each round; round r has the timestamp
// points.Epoch + r*step, where step = Speedup*Series/Rate seconds of data
// time, so data time runs Speedup times faster than wall time and a
// retention window of minutes expires data in a short run. Point i is
// round i/Series of slot i mod Series; its value is
// points.Generator.Value(i+1), as in every workload. With Churn, a
// fraction of the slots gets a new series id every ChurnEvery of data
// time (slot j's generation g is id g*Series+j), so the ids used grow over
// the run. Late batches (a fraction Late) are sent up to LateWindow of
// data time after their own slot, and a fraction OutOfOrder of each
// batch's points are put in another order. Every point, and every
// decision, is a pure function of the seed and its index.
//
// # An imported file
//
// With Values of points.Imported (-values FILE, surveyed first:
// points.Values.Survey) the points are the file's, not the model's:
// point i is the file's point i in file order, sent in its batch on the
// same schedule at Rate, at its own timestamp, in the series its series
// key maps to (points.File), sequence i+1, its value the file's in the
// encoding asked. The schedule holds the file's points or Rate*Duration,
// whichever is fewer, in whole batches: the run ends at the file's end
// or the duration. Data time is the file's timestamps, from its earliest
// (Speedup is their pace at Rate, on average; -speedup is refused): the
// front is the latest timestamp below the watermark, and retention cuts
// at the front less Retention, in buckets from the earliest, by the
// delete or shards method. Late batches and churn do not apply (the
// file's order and series are its own); out-of-order points do. The
// bucket layout counts buckets from the model's start, and ttl's cutoff
// moves while the final check sums a series, so both are refused; so is
// a file with a point further behind the latest before it than Retention
// less a bucket (retention could delete its time before it is written),
// one of fewer than two batches, and a Retention not shorter than its
// span.
//
// A read of a file's series is checked by its keys and encodings: each
// point of the series and range, in order, once, of a scheduled point,
// not one retention had deleted before the query began, with a value of
// the series' encoding; which points a range holds is not known without
// the file, so a read's missing points are left to the final check. It
// reads the store series by series, checks the same, and sums each
// series' points found (count and points.Digest); then it streams the
// file's scheduled points and sums, per series, the committed ones not
// expired; any difference of count or sum is a missing, unexpected or
// wrong point. Memory grows with the series (a few sums each) and by a
// timestamp per batch (each batch's front), not with the file's points.
//
// # Retention
//
// A goroutine follows the watermark, the point below which every batch is
// committed: once the data there is Retention past a bucket's end
// (BucketWidth of data time), everything before that bucket boundary is
// deleted, by Method:
//
//	delete   a DeleteRange per series id that had points there (series-major keys, tskey.PutKey)
//	bucket   a DeleteRange per expired bucket of time-bucket-major keys (tskey.PutBucketKey)
//	shards   an engine instance per bucket of data time (Config.Open), closed and its directory
//	         deleted once it expires, as InfluxDB drops a shard
//	ttl      nothing: the engine, opened with an expiry of Retention/Speedup in wall time
//	         (Config.Expiry, engine.Options.Expiry), drops each point itself (expiry.go says how
//	         the checks follow it)
//
// # Queries
//
// Each reader runs every query kind of the mixed workload's Mix once, then
// draws kinds by its weights: last (the latest point of a live series, by
// a reverse seek), recent (its last Window of data time), range (a random
// range of its retained data), scan (all of it) and multi (recent over 10
// series, one after another). A series' reads span one key range per
// bucket with the bucket layout and one per shard with shards. Each point
// read must be a point of the series and range, in order, once, with its
// value, and not one retention had deleted before the query began (else
// wrong or expired); each point committed below the watermark when the
// query began and not yet being deleted when it ended must be read (else
// missing). After the run, a final check reads the whole store, series
// by series (one iterator moved on with engine.SetBounds, the ranges
// tiling the key space), and expects exactly the committed points that
// did not expire.
//
// Every range read or deleted lies within one series (with the bucket
// layout, one bucket), so the workload runs on an engine ordered only
// within a prefix of 8 bytes (engine.OrderPrefix: Cassandra's
// partitions); there the final check reads the run's series alone. The
// shards method opens an engine per shard: on a local cluster (etcd,
// Cassandra) a cluster per shard, each taking seconds to a minute to
// start and all on the same addresses, so it does not run there.
//
// # What is measured
//
// For the run: points written and unsent, ingest rate, write latency from
// the intended start and of the commit alone, each query kind's rate,
// latency and checks, retention passes and their time, the disk at the
// end and its spread in the last third of the run (flat for an engine
// that reclaims space), space and write amplification, and the cost
// (CPU, I/O, peak RSS, and the peaks of memory by kind: private, its Go
// runtime part, mapped files; cost.memory in JSON, see harness.Cost).
// Per interval of wall time (Interval): the ingest rate, write and query
// p50/p99/max, the backlog (points due and not committed), data time and
// cutoff, disk used, live bytes, space and write amplification, RSS and
// the engine's counters (engine.ReadMetrics: stalls, compaction bytes),
// in JSON and drawn by Report.HTML, with rings where the engine stalled.
// The harness's memory grows with the duration by one bit per batch of
// the schedule and one Interval per interval (BenchmarkMemoryFlat).
//
// # Rate search
//
// FindRate runs whole probes, each on a fresh store, to find the highest
// rate an engine sustains for Duration: doubling from Rate while probes
// pass, halving while they fail, then narrowing to within 10%. A probe
// fails on the first of an error or wrong answer, a backlog, write
// stalls, retention falling behind (disk), or a write or query p99 over
// its Targets; the Search in the result says which stopped the lowest
// failing rate.
//
// # On the command line
//
// The package registers itself as the workload steady of package
// workload/suite: Settings are a Config that its own flags set (-speedup,
// -retention, ..., and those it shares with the mixed workload,
// querymix.DefineLoad) with -find-rate and its targets; -series, -batch,
// -seed and -interval are the command's, copied in once when the workload
// is configured.
package steady
