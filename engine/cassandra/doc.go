// Package cassandra is the "cassandra" engine: Apache Cassandra 5.0.9
// through the Go driver github.com/apache/cassandra-gocql-driver/v2, in
// the layout time-series stores on Cassandra use: a table whose partition
// key is a key's first prefix_length bytes (8: the series id of package
// tskey's keys) and whose clustering column is the rest of the key, a
// blob, which Cassandra sorts unsigned bytewise within the partition.
//
//	import _ "github.com/tsbench/storage/engine/cassandra"
//
//	db, err := engine.Open("cassandra", dir, nil) // starts 3 nodes in dir
//
// # Order within a prefix
//
// Under the default Murmur3 partitioner partitions are spread by the hash
// of their key, so keys are ordered within a partition and not across
// partitions. Limits say so (engine.Limits.OrderedPrefix, read with
// engine.OrderPrefix): keys are at least prefix_length bytes long, and
// engine.Open refuses an iterator, a SetBounds or a DeleteRange whose
// range spans prefixes with engine.ErrUnordered instead of returning keys
// out of order. A range is [P..., P...) or [P..., the prefix after P),
// as a time-series query or delete of one series is. Compact takes any
// range. NewSnapshot and Checkpoint, whose fallbacks read every key in
// order, fail with engine.ErrUnordered; the micro benchmarks that scan
// every key say "not supported: ordered within prefix".
//
// Partitioner "byte_ordered" (ByteOrderedPartitioner, num_tokens 1 and an
// initial token per node) orders partitions by their key bytes, so one
// bytewise order runs over every key and the engine passes the whole
// acceptance suite. It is a test mode, not what production runs: a range
// of keys lives on one node. An iterator then reads the partitions in its
// range by token and keeps the keys within its bounds; a DeleteRange
// lists those partitions and deletes each whole or in part.
//
// # Reads and iterators
//
// Get is one read at the consistency level. Cassandra keeps no snapshot
// to read later, so NewIterator reads its whole range when it is made
// (pages of 10,000 rows) and serves the moves from memory: its view is
// that moment's for a range of one page, each page's for a longer one.
// SetBounds reads the new range. A series of the time-series workload is
// one page; a global scan under byte_ordered holds the whole store in
// memory. Snapshots are the engine layer's fallback: one such iterator.
//
// # Writes, acknowledgement and atomicity
//
// Put and Delete are one statement each. Every write carries a timestamp
// from a clock that never repeats within the process, so this process's
// writes apply in the order it made them. A write is acknowledged once
// the consistency level's replicas (QUORUM: 2 of 3) have it in their
// commit log and memtable; commitlog_sync says when that log reaches the
// disk: periodic (the default) syncs every 10 s, so a machine that fails
// loses up to 10 s of acknowledged writes; batch (the shared sync =
// "batch") and group sync before acknowledging.
//
// A batch is split by partition; only the last write of each key is
// sent, since one Commit's writes share a timestamp. Each partition's
// part is one UNLOGGED batch (or one statement), sent to a replica of the
// partition (token-aware routing), all parts at once, up to in_flight (32)
// at a time.
// Commit returns when every part is acknowledged at the consistency
// level. A part is atomic and isolated: its writes apply all or none, and
// no reader sees some of them without the others. A batch across
// partitions is not: Limits say so (engine.Limits.AtomicPrefix); if
// Commit fails, some parts may have been applied (the batch is kept, and
// a retry writes the same values again), and readers may see one part
// before another. A LOGGED batch would make a multi-partition batch
// all-or-nothing in the end, but still not isolated, at the cost of a
// batch log write on two more nodes and the batch_size_fail_threshold
// (50 KiB), which a batch of the 2014 order (one point of each of 1,000
// series) exceeds; this engine does not use it. Per-partition batches are
// never checked against batch_size_fail_threshold (Cassandra checks only
// batches over several partitions), so the yaml keeps Cassandra's
// thresholds. One write or batch holds at most 8 MiB of keys and values
// (engine.Limits.MaxBatchSize: a partition's part is one mutation, which
// the commit log takes up to 16 MiB), and a key at most 32 KiB.
//
// DeleteRange of one partition is one range tombstone (a partition
// tombstone for the whole partition). Compact does what nodetool flush
// and nodetool compact do for the engine's table, on every node at once:
// a major compaction that, with the default gc_grace of 0, drops deleted
// data and its tombstones. It asks over each node's JMX port, through
// the probe: a client JVM (scripts/cassandra/Probe.java, which
// scripts/build-cassandra.sh compiles into build/cassandra/probe) that
// reads requests on its stdin and keeps its JMX connections. One probe
// serves every engine of the process; the first Compact starts it, and
// it exits once the last engine that could compact has closed, or with
// this process. A nodetool run starts a JVM per command instead, a
// second or two each.
//
// # Local or given cluster
//
// Without hosts, Open starts a local cluster of Options.Nodes (3) nodes
// on consecutive loopback addresses from Options.Address (127.0.0.2,
// .3, .4), each on the same ports (CQL 9042, storage 7000) and a free JMX
// port on 127.0.0.1: each a java process running
// org.apache.cassandra.service.CassandraDaemon in the foreground with the
// jars that scripts/build-cassandra.sh resolves (build/cassandra/
// classpath), its own cassandra.yaml and logback.xml, the Java 17 options
// of Cassandra's conf/jvm17-server.options, the jamm agent, a fixed heap
// (Options.Heap, 1 GiB: the heap the measured rates were taken with;
// each node takes about 0.5 GiB beyond it), -XX:+ExitOnOutOfMemoryError
// and Options.JVMOptions, none by default (the tests give C1 alone).
// Everything of node i is under dir/n<i>: data, commitlog, hints,
// saved_caches, cdc_raw and logs/system.log, with disk_access_mode
// mmap_index_only (a stock vm.max_map_count of 65530 is too few to map
// every data file). Under murmur3 each node has 16 tokens, given rather
// than allocated (a node allocating its tokens waits ring_delay first):
// spread evenly over the ring and interleaved between the nodes, as the
// allocator aims for on a cluster of fixed size. The nodes start one
// after another, each once the one before serves CQL (about 5 s each on
// an idle machine); a node that does not within
// start_timeout fails Open with one line quoting the end of its log, and
// a port already taken (another local cluster on those addresses) fails
// it naming the address. They are never niced: a niced node was seen to
// stall 87 s. Close stops them (SIGTERM: each drains its memtables);
// they never outlive this process: each is started with Pdeathsig from a
// thread that lives as long as it does, and in its own process group, so
// a Ctrl-C is this process's to handle. Their data stays in dir for the
// next Open, which restarts the same cluster. PIDs gives their process
// ids (engine.Processes), so that package workload counts their CPU
// time, I/O and memory; Sizes the SSTables of the engine's table on every
// node (engine.Sizer); Limits.Copies is rf.
//
// With Options.Hosts the engine uses that cluster, in a keyspace of its
// own (tsbench_<12 hex digits>, recorded in dir's cassandra.json); Close
// only disconnects, or with DropOnClose drops the keyspace. Compact needs
// the nodes' JMX addresses there (Options.JMX), Sizes is not known.
//
// # Shared options
//
// Sync "batch" selects commitlog_sync batch on a local cluster.
// CacheSize, WriteBufferSize, DisableCompression, MaxOpenFiles and
// BloomBitsPerKey have Cassandra equivalents (key cache, memtable space,
// table compression, bloom_filter_fp_chance) that this engine leaves at
// Cassandra's defaults; they are ignored. Expiry puts Cassandra's TTL on
// every insert (USING TTL), a second longer, since Cassandra ends a cell
// at the second of its write rounded down plus its TTL: reads stop
// seeing a row once it has expired, and compactions drop it after
// gc_grace_seconds.
//
// # Not done yet
//
// Issue 39's later parts: the results at 10M and 100M points, node
// memory by kind, Cassandra's metrics, the crash workload's -kill member,
// and etcd at its current release.
//
// # Run only when named
//
// engine/all links the engine, but it registers engine.Driver.OnlyByName:
// -engine all (engine.AllNames), and the tests that open every engine,
// leave it out, since a local cluster is JVM processes, seconds to start
// and a GiB of memory each. Name it: -engine cassandra.
package cassandra
