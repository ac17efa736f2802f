package cassandra

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/tsbench/storage/engine"
)

func init() {
	engine.RegisterBackendContext("cassandra", open, engine.Driver{
		Version:   Version,
		Build:     Build,
		Recognize: recognize,
		Expiry:    true, // Cassandra's TTL on every insert (expiry.go)
		// A local cluster is JVM processes, seconds to start and a GiB
		// each: only a run that names the engine starts one.
		OnlyByName: true,
	})
}

// DB is a Cassandra cluster used as an engine.Engine: the engine's keys
// are rows of one table, partitioned by their first PrefixLength bytes.
type DB struct {
	s      *gocql.Session
	dir    string
	o      Options
	l      layout
	local  *cluster // nil on a given cluster
	global bool     // the byte-ordered partitioner: one order over every key
	cl     gocql.Consistency

	describe string
	version  string
	probing  bool // counted among the probe's users (useProbe) until Close

	// clock gives every write a timestamp above the last one's, so that
	// writes of this process apply in the order they were made even
	// within one microsecond: Cassandra keeps the write with the highest
	// timestamp, a delete on a tie.
	clock atomic.Int64

	// ttl is every insert's TTL in seconds, 0 for none (ttlOf).
	ttl int64

	// Statements, with the keyspace and table in them.
	qGet, qPut, qDel, qDelRange, qDelFrom, qDelPart string
}

// Open opens the engine in dir, an existing directory, with opts, resolved
// first as engine.Open resolves them: it starts the local cluster kept in
// dir, or connects to the cluster named by the hosts option. It is the
// backend alone, without the directory lock and the contract's rules that
// engine.Open("cassandra", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackendContext[*DB](context.Background(), "cassandra", dir, &opts)
}

// openContext is Open given opts resolved, and the backend's own options
// in o, but for the expiry, which open adds.
func openContext(ctx context.Context, dir string, opts engine.Options, o Options) (*DB, error) {
	l, exists, err := readLayout(dir)
	if err != nil {
		return nil, err
	}
	if exists {
		if err := l.check(dir, o); err != nil {
			return nil, err
		}
	}
	if len(o.Hosts) > 0 {
		if !exists {
			l = newGivenLayout(o)
		}
		d, err := connect(ctx, dir, o, l, o.Hosts)
		if err != nil {
			return nil, err
		}
		// The keyspace is recorded only once it exists, so that a failed
		// first open leaves the directory as it was.
		if err == nil && !exists {
			err = l.write(dir)
		}
		if err == nil {
			err = d.describeCluster("given")
		}
		if err != nil {
			d.s.Close()
			return nil, err
		}
		if len(o.JMX) > 0 {
			d.probing = true
			useProbe()
		}
		return d, nil
	}
	java, err := exec.LookPath(o.Java)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoJava, err)
	}
	return openLocal(ctx, java, dir, o, l, exists)
}

// openLocal starts the local cluster in dir, a new one unless exists.
func openLocal(ctx context.Context, java, dir string, o Options, l layout, exists bool) (_ *DB, err error) {
	if !exists {
		l = newLocalLayout(o)
		if err := l.write(dir); err != nil {
			return nil, err
		}
		// A new cluster that failed to start leaves nothing behind, so the
		// next Open starts afresh.
		defer func() {
			if err != nil {
				removeLocal(dir, l)
			}
		}()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Compact's probe is checked now rather than after a long load.
	if _, err := probeClasspath(o); err != nil {
		return nil, err
	}
	c, err := startCluster(java, dir, l, o)
	if err != nil {
		return nil, err
	}
	d, err := connect(ctx, dir, o, l, c.hosts())
	if err == nil {
		d.local = c
		if err = d.waitReady(ctx); err == nil {
			err = d.describeCluster("local")
		}
		if err == nil {
			d.probing = true
			useProbe()
			return d, nil
		}
		d.s.Close()
	}
	c.kill()
	return nil, err
}

// waitReady returns once every node, as a coordinator, finds enough
// replicas alive for a read at the engine's consistency, or fails after
// start_timeout: a node serves CQL before gossip has told it that the
// others are up, and a read or write it coordinates until then fails with
// "cannot achieve consistency level".
func (d *DB) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, d.o.StartTimeout)
	defer cancel()
	probe := make([]byte, d.l.PrefixLength)
	for _, h := range d.s.GetHosts() {
		for {
			var v []byte
			err := d.s.Query(d.qGet, probe, []byte{}).SetHostID(h.HostID()).ScanContext(ctx, &v)
			if err == nil || errors.Is(err, gocql.ErrNotFound) {
				break
			}
			if ctx.Err() != nil {
				return fmt.Errorf("%w: node %s did not find enough replicas alive for %s within %v (start_timeout): %v", ErrStart, h.ConnectAddress(), d.o.Consistency, d.o.StartTimeout, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return nil
}

// nopLogger keeps the driver quiet: its errors reach the caller.
type nopLogger struct{}

func (nopLogger) Error(string, ...gocql.LogField)   {}
func (nopLogger) Warning(string, ...gocql.LogField) {}
func (nopLogger) Info(string, ...gocql.LogField)    {}
func (nopLogger) Debug(string, ...gocql.LogField)   {}

// connect opens a session on the cluster at hosts, makes the keyspace and
// table of l if they are missing, and reads which partitioner the cluster
// runs.
func connect(ctx context.Context, dir string, o Options, l layout, hosts []string) (*DB, error) {
	cl := gocql.ParseConsistency(o.Consistency)
	s, err := session(o, hosts, cl, false)
	if err != nil {
		return nil, err
	}
	d := &DB{s: s, dir: dir, o: o, l: l, cl: cl}
	d.statements()
	if err := d.schema(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return d, nil
}

// session opens a session on the cluster at hosts that reads and writes
// at consistency cl; with only, to the hosts alone, not the others the
// driver learns of.
func session(o Options, hosts []string, cl gocql.Consistency, only bool) (*gocql.Session, error) {
	cc := gocql.NewCluster(hosts...)
	cc.Consistency = cl
	cc.Timeout = o.RequestTimeout
	cc.ConnectTimeout = min(o.RequestTimeout, 10*time.Second)
	cc.Logger = nopLogger{}
	// Each request goes to a replica of its partition, which coordinates
	// it without another hop.
	cc.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	if only {
		cc.HostFilter = gocql.WhiteListHostFilter(hosts...)
	}
	s, err := cc.CreateSession()
	if err != nil {
		return nil, fmt.Errorf("%w: %v: %w", ErrUnreachable, hosts, err)
	}
	return s, nil
}

// statements writes the keyspace and table into d's statements.
func (d *DB) statements() {
	ks := quoteName(d.l.Keyspace) + "." + table
	d.qGet = "SELECT v FROM " + ks + " WHERE p = ? AND c = ?"
	d.qPut = "INSERT INTO " + ks + " (p, c, v) VALUES (?, ?, ?)" + d.usingTTL()
	d.qDel = "DELETE FROM " + ks + " WHERE p = ? AND c = ?"
	d.qDelRange = "DELETE FROM " + ks + " WHERE p = ? AND c >= ? AND c < ?"
	d.qDelFrom = "DELETE FROM " + ks + " WHERE p = ? AND c >= ?"
	d.qDelPart = "DELETE FROM " + ks + " WHERE p = ?"
}

// schema makes the keyspace and the table unless they exist, and learns
// the partitioner.
func (d *DB) schema(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, max(d.o.RequestTimeout, time.Minute))
	defer cancel()
	var partitioner, version string
	if err := d.s.Query("SELECT partitioner, release_version FROM system.local").ScanContext(ctx, &partitioner, &version); err != nil {
		return d.wrap("read system.local", err)
	}
	d.global = strings.HasSuffix(partitioner, ".ByteOrderedPartitioner")
	d.version = version
	ks := quoteName(d.l.Keyspace)
	stmts := []string{
		fmt.Sprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': %d}", ks, d.o.RF),
		// A blob clustering column sorts unsigned bytewise, the
		// contract's order, within each partition.
		fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (p blob, c blob, v blob, PRIMARY KEY ((p), c)) WITH compaction = {'class': '%s'} AND gc_grace_seconds = %d",
			ks, table, strategies[d.o.Compaction], int64(d.o.GCGrace/time.Second)),
	}
	checks := []func(context.Context) error{d.checkReplication, d.checkColumns}
	for i, q := range stmts {
		// Retried: a node just started may coordinate the statement before
		// it has learnt the keyspace made a moment ago, or that the other
		// nodes are up. Both statements are idempotent.
		var err error
		for {
			if err = d.s.Query(q).Consistency(gocql.All).ExecContext(ctx); err == nil || ctx.Err() != nil {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if err != nil {
			return d.wrap("create the keyspace and table", err)
		}
		if err := checks[i](ctx); err != nil {
			return err
		}
	}
	return nil
}

// wantColumns are the engine table's columns as system_schema.columns
// lists them: name, kind and type, with the clustering order.
var wantColumns = map[string]string{
	"p": "partition_key blob none",
	"c": "clustering blob asc",
	"v": "regular blob none",
}

// checkReplication fails with ErrLayout when the keyspace existed
// already with another replication than the engine's (a given
// cluster's, made by someone else), before the engine adds its table.
func (d *DB) checkReplication(ctx context.Context) error {
	var repl map[string]string
	if err := d.s.Query("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", d.l.Keyspace).ScanContext(ctx, &repl); err != nil {
		return d.wrap("read the keyspace's replication", err)
	}
	if rf := repl["replication_factor"]; rf != strconv.Itoa(d.o.RF) {
		return fmt.Errorf("%w: keyspace %s replicates %v, not SimpleStrategy with rf %d: set rf to its own, or use another directory (a new keyspace)", ErrLayout, d.l.Keyspace, repl, d.o.RF)
	}
	return nil
}

// checkColumns fails with ErrLayout when the engine's table existed
// already with other columns.
func (d *DB) checkColumns(ctx context.Context) error {
	got := map[string]string{}
	it := d.s.Query("SELECT column_name, kind, type, clustering_order FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?", d.l.Keyspace, table).IterContext(ctx)
	var name, kind, typ, order string
	for it.Scan(&name, &kind, &typ, &order) {
		got[name] = kind + " " + typ + " " + order
	}
	if err := it.Close(); err != nil {
		return d.wrap("read the table's columns", err)
	}
	if !maps.Equal(got, wantColumns) {
		return fmt.Errorf("%w: table %s.%s has columns %v, not the engine's (p blob partition key, c blob clustering ascending, v blob): drop it, or use another directory (a new keyspace)", ErrLayout, d.l.Keyspace, table, got)
	}
	return nil
}

// quoteName quotes a keyspace name for CQL.
func quoteName(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// now returns the timestamp of the next write, in microseconds: the
// clock's, or one above the last write's.
func (d *DB) now() int64 {
	for {
		last := d.clock.Load()
		t := max(time.Now().UnixMicro(), last+1)
		if d.clock.CompareAndSwap(last, t) {
			return t
		}
	}
}

// ctx bounds one request by request_timeout.
func (d *DB) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d.o.RequestTimeout)
}

// wrap names the operation and maps the driver's errors to the shared
// and this package's sentinels, keeping the driver's message.
func (d *DB) wrap(op string, err error) error {
	var (
		wt       *gocql.RequestErrWriteTimeout
		rt       *gocql.RequestErrReadTimeout
		un       *gocql.RequestErrUnavailable
		sentinel error
	)
	switch {
	case errors.As(err, &wt), errors.As(err, &rt), errors.Is(err, context.DeadlineExceeded), errors.Is(err, gocql.ErrTimeoutNoResponse):
		sentinel = ErrTimeout
	case errors.As(err, &un):
		sentinel = ErrUnavailable
	case errors.Is(err, gocql.ErrNoConnections):
		sentinel = ErrUnreachable
	case strings.Contains(err.Error(), "is too large for the maximum size"):
		// The commit log takes a mutation of at most half a segment.
		sentinel = fmt.Errorf("%w: a partition's part of the write is over Cassandra's max_mutation_size; write less at once", engine.ErrTooLarge)
	default:
		return fmt.Errorf("cassandra: %s: %w", op, err)
	}
	return fmt.Errorf("%w: %s: %w", sentinel, op, err)
}

// Get implements engine.Backend.
func (d *DB) Get(key []byte) ([]byte, error) {
	p, c := d.split(key)
	ctx, cancel := d.ctx()
	defer cancel()
	var v []byte
	if err := d.s.Query(d.qGet, p, c).Idempotent(true).ScanContext(ctx, &v); err != nil {
		if errors.Is(err, gocql.ErrNotFound) {
			return nil, engine.ErrNotFound
		}
		return nil, d.wrap("get", err)
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

// Put implements engine.Backend.
func (d *DB) Put(key, value []byte) error {
	p, c := d.split(key)
	return d.exec("put", d.s.Query(d.qPut, p, c, nonNil(value)))
}

// nonNil keeps an empty value a value: the driver sends a nil slice as
// null, which Cassandra stores as no value at all.
func nonNil(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// Delete implements engine.Backend.
func (d *DB) Delete(key []byte) error {
	p, c := d.split(key)
	return d.exec("delete", d.s.Query(d.qDel, p, c))
}

// exec runs one write with the next timestamp.
func (d *DB) exec(op string, q *gocql.Query) error {
	ctx, cancel := d.ctx()
	defer cancel()
	if err := q.WithTimestamp(d.now()).ExecContext(ctx); err != nil {
		return d.wrap(op, err)
	}
	return nil
}

// DeleteRange implements engine.Backend: one range tombstone per
// partition the range covers. Under the default partitioner the engine
// layer has checked that the range lies within one partition
// (engine.Limits.CheckOrdered); under the byte-ordered one the partitions
// in it are listed first, and each is deleted whole or in part.
func (d *DB) DeleteRange(start, end []byte) error {
	if !d.global {
		p, _ := d.split(start)
		return d.deleteIn(p, start, end)
	}
	ps, err := d.partitions(start, end)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if err := d.deleteIn(p, start, end); err != nil {
			return err
		}
	}
	return nil
}

// deleteIn deletes the keys of partition p within [start, end).
func (d *DB) deleteIn(p, start, end []byte) error {
	cl, cu, ok := clusterRange(p, start, end)
	switch {
	case !ok:
		return nil
	case cl == nil && cu == nil:
		return d.exec("delete range", d.s.Query(d.qDelPart, p))
	case cu == nil:
		return d.exec("delete range", d.s.Query(d.qDelFrom, p, nonNil(cl)))
	}
	return d.exec("delete range", d.s.Query(d.qDelRange, p, nonNil(cl), cu))
}

// partitions lists the partitions that may hold keys of [start, end)
// under the byte-ordered partitioner, whose tokens are the partition keys.
func (d *DB) partitions(start, end []byte) ([][]byte, error) {
	q, args := d.tokenRange("SELECT DISTINCT p FROM", start, end)
	ctx, cancel := d.ctx()
	defer cancel()
	it := d.s.Query(q, args...).Idempotent(true).IterContext(ctx)
	var ps [][]byte
	var p []byte
	for it.Scan(&p) {
		ps = append(ps, p)
		p = nil
	}
	if err := it.Close(); err != nil {
		return nil, d.wrap("list partitions", err)
	}
	return ps, nil
}

// tokenRange is the query select ... the table for the partitions that
// may hold keys of [start, end), by token, under the byte-ordered
// partitioner, with its arguments.
func (d *DB) tokenRange(sel string, start, end []byte) (string, []any) {
	q := sel + " " + quoteName(d.l.Keyspace) + "." + table
	var where []string
	var args []any
	if len(start) > 0 {
		p, _ := d.split(start)
		where = append(where, "token(p) >= token(?)")
		args = append(args, p)
	}
	if end != nil {
		p, _ := d.split(end)
		where = append(where, "token(p) <= token(?)")
		args = append(args, p)
	}
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q, args
}

// Close implements engine.Backend: it stops a local cluster's nodes, or
// just disconnects from a given cluster, whose keyspace stays unless
// DropOnClose. The engine's wrapper calls it once, with no call in flight.
func (d *DB) Close() error {
	var errs []error
	if d.o.DropOnClose && d.local == nil {
		ctx, cancel := context.WithTimeout(context.Background(), max(d.o.RequestTimeout, time.Minute))
		if err := d.s.Query("DROP KEYSPACE IF EXISTS " + quoteName(d.l.Keyspace)).ExecContext(ctx); err != nil {
			errs = append(errs, d.wrap("drop the keyspace "+d.l.Keyspace+" on close", err))
		}
		cancel()
	}
	d.s.Close()
	if d.probing {
		releaseProbe()
	}
	if d.local != nil {
		errs = append(errs, d.local.stop())
	}
	return errors.Join(errs...)
}
