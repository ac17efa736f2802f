// Package etcd is the "etcd" engine: an etcd v3 cluster (Raft consensus,
// MVCC, a bbolt backend per member) through go.etcd.io/etcd/client/v3,
// for a time-series store that has outgrown one machine. It is the one
// distributed engine here; docs/distributed.md says how TiKV and
// FoundationDB would sit behind the same interface.
//
//	import _ "github.com/tsbench/storage/engine/etcd"
//
//	db, err := engine.Open("etcd", dir, nil) // starts 3 members in dir
//
// # Local cluster
//
// Without endpoints, Open starts a local cluster: Options.Members (3)
// etcd processes on free 127.0.0.1 ports, each with its data in a
// subdirectory of dir (m0, m1, ...), and waits until they agree on a
// leader. etcd.json in dir records the ports, which the members know each
// other by, so reopening dir restarts the same cluster from its data.
// Close stops the members (followers first, so that the leader does not
// try to hand over its leadership), and they never outlive this process:
// each is started with Pdeathsig, so the kernel kills it when the process
// dies however it dies, and in its own process group, so a Ctrl-C is this
// process's to handle. PIDs gives their process ids (engine.Processes):
// etcd does its work in them, so package workload adds their CPU time and
// I/O to its own process's and reports their memory. Limits says that
// the directory holds a full copy of the data per member
// (engine.Limits.Copies), which the acceptance suite's size check allows
// for.
//
// # Which etcd
//
// The members run Options.Binary, by default etcd-tsbench: etcd 3.6.16,
// which make setup builds from the Go module go.etcd.io/etcd/server/v3
// at the version scripts/etcd/go.mod pins (every module pinned by its
// go.sum) and installs as PREFIX/bin/etcd-tsbench, /usr/local/bin by
// default (scripts/build-etcd.sh). Debian's etcd-server, 3.4.23, which
// make setup installs too, stays reachable as binary "etcd" (-set
// etcd.binary=etcd). Open asks the binary its version (etcd --version)
// and refuses, with ErrNotEtcd, one that is not etcd 3.4 or later; the
// members' flags mean the same to 3.4 and 3.6. etcd.json records the
// version a local cluster last ran, and Open refuses the directory to a
// binary of another minor release: etcd 3.6 converts 3.4's data for good
// when it starts, and 3.4 cannot read 3.6's. The engine talks to either
// through the 3.6 client. Version and Build, which reports show after
// the engine's name, describe the default binary; Describe names the
// version the members report and the binary they run.
//
// What differs for the engine between the two is how much of the Raft
// log a member keeps in memory: 3.4 frees it only when it snapshots,
// every Options.SnapshotCount entries, keeping the last 5,000; 3.6 frees
// it every 100 entries, keeping 5,000, and SnapshotCount only sets how
// often it writes a snapshot to disk. The measurements below were made
// with 3.4.23.
//
// # Given cluster
//
// With Options.Endpoints, the engine uses that cluster, reads and writes
// only keys under its own prefix (/tsbench/<16 hex digits>/, recorded in
// dir's etcd.json, so that reopening dir finds the same data), and leaves
// everything else alone: DeleteRange(nil, nil) deletes exactly its prefix,
// and Close only disconnects, or with Options.DropOnClose first deletes
// the prefix (benchmark-storage sets it unless -keep). Open fails with
// ErrUnreachable when no endpoint answers with a quorum within
// Options.DialTimeout.
//
// Describe says which cluster it is (the etcd version its members
// report, local or given, members and their addresses, prefix), for a
// run's record (engine.Describer); Sizes reports the members' backend
// sizes from their status (engine.Sizer), which package workload records
// after each step. engine.Open's wrapper does not forward these: reach
// them through engine.BackendAs or engine.Unwrap.
//
// # Mapping of the interface
//
// Put, Delete and Get are one request each, and Get is linearizable: the
// member asks the leader to confirm its read index first. A batch is one transaction, so one Raft entry,
// applied all or nothing; etcd refuses a transaction that writes a key
// twice, so only the last write of each key is sent. A batch of more than
// max_txn_ops distinct keys or max_request_bytes fails whole with an error
// wrapping engine.ErrTooLarge: it is never split, which would give up its
// atomicity. DeleteRange is one range delete: one Raft entry, atomic,
// whatever the number of keys, all of which the members apply at once.
//
// An iterator reads pages at one revision, its snapshot: etcd keeps every
// revision until a compaction. NewIterator reads the first page (1,000
// entries) from the lower bound at once, which fixes the revision, and
// each later read doubles the page up to 32,768 entries or about 8 MiB.
// NewSnapshot pins a revision for Gets and iterators, and SetBounds keeps
// an iterator's revision. Two costs are etcd's own: for every range
// request a member walks its in-memory index over the whole rest of the
// requested range, whatever the limit, so a long scan costs more than its
// length (the growing pages keep the number of requests small); and a
// member serves a descending request by reading the whole rest of the
// range from its backend and sorting it, so a reverse scan over a large
// range reads it again for every page.
//
// Compact compacts the history up to the current revision (or the oldest
// revision an open iterator or snapshot reads, which stays readable) and
// then defragments every member, which rewrites its backend file without
// the free pages. etcd compacts its whole keyspace: the bounds are
// ignored, and on a given cluster the history of other users' keys goes
// too. A member serves no request while it defragments. Compact returns
// when the compaction has been applied, so the engine has no background
// work to report (engine.Backgrounder), and no Flush (engine.Flusher): no
// request makes a member fsync.
//
// # Durability
//
// A write returns once a majority of the members has it in its write-ahead
// log. Sync "batch" is etcd's default: each member fsyncs its log before
// acknowledging. Sync "none" starts the local members with
// --unsafe-no-fsync: they write their log without fsync, so acknowledged
// writes survive a crash of the members, not of the machine: after a
// power cut under it the local cluster of 3.4.23 was found unable to
// elect a leader at all, so the store did not open
// (results/powercut). On one machine the replicas share a disk and a
// power supply: they survive the loss of a member process, not of the
// machine. A given cluster keeps its own setting, whatever Sync says.
//
// The loss of one member of three leaves a quorum, and the engine goes on
// (TestQuorumSurvivesMemberKill kills one with SIGKILL mid-run): no
// acknowledged batch is lost and none is torn. A request in flight to the
// killed member fails (Unavailable); after the leader's death, one
// forwarded to it fails after etcd's own request timeout (7 s measured
// with 3.4.23; the election itself has a 1 s timeout), so writes pause
// that long. Such a failed write may or may not have been applied; the
// engine does not retry it, as only the caller knows whether doing it
// twice is harmless. Sizes then fails with ErrMemberExited, and Close
// stops the members left.
//
// # Shared options
//
// etcd's bbolt backend reads through the OS page cache and has no
// memtable, table files, compression or bloom filters, so CacheSize,
// WriteBufferSize, DisableCompression, MaxOpenFiles and BloomBitsPerKey
// have no equivalent and are ignored. Only Sync applies, and only to a
// local cluster. etcd's own settings are in Options.
//
// # What fits
//
// Every member holds a full copy, so a local cluster of 3 stores and
// indexes everything three times on one machine. Measured on the
// time-series workload (24-byte keys, values of about 10 bytes) with a
// local 3-member cluster of etcd 3.4.23, 1M points over 5k series:
//
//   - Backend: about 92 bytes per live point per member, plus one
//     tombstone per deleted key and every superseded revision until
//     Compact. A member refuses writes once its backend file reaches
//     backend_quota (2 GiB by default; etcd suggests at most 8 GiB): with
//     the workload's deletes, that is about 17M points at 2 GiB and 70M at
//     8 GiB.
//   - Memory: etcd keeps an index entry for every key in memory, and the
//     end of its Raft log, a batch an entry: under 3.4 everything since
//     the last snapshot (up to snapshot_count entries plus 5,000), under
//     3.6 about 5,000 entries. The three members of 3.4 peaked at 2.2 GB
//     of resident memory together, about 0.74 KB per point per member.
//   - Write-ahead log: 64 MB segments, preallocated, plus one spare being
//     prepared: 128 MB per member before the first write. Compact does not
//     shrink it; a segment is removed only after a later one exists and a
//     snapshot covers it (at most 5 are kept), so deleted data stays in
//     the log until then. The segments are preallocated inside their
//     length, so even the directory's used bytes count them: a local
//     cluster of 3 starts at about 384 MB.
//   - Requests: max_request_bytes (10 MiB here, etcd's default 1.5 MiB)
//     bounds a value and a whole batch; max_txn_ops (10,000 here, etcd's
//     default 128) the distinct keys of a batch.
//
// So the largest run that makes sense with a local 3-member cluster is a
// few million points: -points 5M needs about 11 GB of memory for the
// members of 3.4.23 (3.6's, which keep less of their Raft log, were not
// measured) and 0.5 GB of backend per member. The 2014 comparison's 100M
// points do not fit one etcd cluster: about 12 GiB of backend per member,
// beyond the suggested 8 GiB, and some 75 GB of memory per member.
//
// # Keys
//
// Keys are any byte strings, the empty key included: every key is stored
// under the engine's prefix ("/" in a local cluster), which etcd sees as
// part of the key. A key and its value together must fit in
// max_request_bytes.
package etcd
