package etcd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tsbench/storage/engine"
)

func init() {
	engine.RegisterBackendContext("etcd", openContext, engine.Driver{
		Version:   Version,
		Build:     Build,
		Recognize: recognize,
	})
}

// grpcOverhead is what etcd adds to --max-request-bytes for its gRPC
// receive limit; the client's send limit matches it, so that a request
// just over max_request_bytes reaches the server and gets its clear error.
const grpcOverhead = 512 << 10

// DB is an etcd cluster used as an engine.Engine: every key is stored
// under the engine's prefix.
type DB struct {
	cli       *clientv3.Client
	o         Options
	prefix    string
	prefixEnd string   // the first key after every key with prefix
	local     *cluster // nil on a given cluster
	describe  string
	version   string    // what the members report; see Version
	profiles  *profiler // nil without Options.HeapProfiles
	// reads are options of every read: serializable for Alone's client.
	reads []clientv3.OpOption

	// snapMu orders NewIterator and NewSnapshot against Compact; see
	// Compact.
	snapMu sync.RWMutex
	// snaps counts open iterators and snapshots by the revision they read
	// (pin, unpin).
	mu    sync.Mutex
	snaps map[int64]int
}

// Open opens the engine in dir, an existing directory, with opts,
// resolved first as engine.Open resolves them: it starts the local
// cluster kept in dir, or connects to the cluster named by the endpoints
// option. It is the backend alone, without the directory lock and the
// contract's rules that engine.Open("etcd", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return OpenContext(context.Background(), dir, opts)
}

// OpenContext is Open giving up when ctx is done, with an error wrapping
// ctx.Err(): while it waits for the cluster to answer (a given one) or to
// become healthy (a local one, whose members it then stops).
func OpenContext(ctx context.Context, dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackendContext[*DB](ctx, "etcd", dir, &opts)
}

// openContext is OpenContext given opts resolved, and the backend's own
// options in o.
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
	if len(o.Endpoints) > 0 {
		return openGiven(ctx, dir, o, l, exists)
	}
	bin, err := exec.LookPath(o.Binary)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoEtcd, err)
	}
	v, err := versionOf(bin)
	if err != nil {
		return nil, err
	}
	if exists {
		if err := l.checkVersion(dir, bin, v); err != nil {
			return nil, err
		}
	}
	return openLocal(ctx, bin, v, dir, o, opts.Sync, l, exists)
}

// openLocal starts the local cluster in dir with bin, etcd v, a new one
// unless exists.
func openLocal(ctx context.Context, bin string, v etcdVersion, dir string, o Options, sync engine.SyncMode, l layout, exists bool) (_ *DB, err error) {
	if !exists {
		if l, err = newLocalLayout(o.Members); err != nil {
			return nil, err
		}
		l.Version = v.full
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
	c, err := startCluster(bin, dir, l, o, sync)
	if err != nil {
		return nil, err
	}
	d, err := connect(o, l.Prefix, c.endpoints())
	if err == nil {
		err = c.waitHealthy(ctx, d.cli, d.probe)
		if err == nil && l.Version != v.full {
			// Started on the data of another patch release, or of a
			// directory that did not record its version yet.
			l.Version = v.full
			err = l.write(dir)
		}
		if err == nil {
			d.local = c
			if err = d.describeCluster("local", bin); err == nil {
				if o.HeapProfiles != "" {
					d.profiles = startProfiles(o.HeapProfiles, c.members)
				}
				return d, nil
			}
		}
		d.cli.Close()
	}
	c.kill()
	return nil, err
}

// removeLocal deletes what a new local cluster put in dir.
func removeLocal(dir string, l layout) {
	for _, m := range l.Members {
		os.RemoveAll(filepath.Join(dir, m.Name))
	}
	os.Remove(filepath.Join(dir, layoutFile))
}

// openGiven connects to the cluster at o.Endpoints, under a new prefix
// unless exists.
func openGiven(ctx context.Context, dir string, o Options, l layout, exists bool) (*DB, error) {
	if !exists {
		l = newGivenLayout(o.Endpoints)
	}
	d, err := connect(o, l.Prefix, o.Endpoints)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.DialTimeout)
	err = d.probe(ctx)
	cancel()
	if err != nil {
		err = fmt.Errorf("%w: %v gave no answer with a quorum within %v: %w", ErrUnreachable, o.Endpoints, o.DialTimeout, err)
	}
	// The prefix is recorded only once the cluster answered, so that a
	// failed first open leaves the directory as it was.
	if err == nil && !exists {
		err = l.write(dir)
	}
	if err == nil {
		err = d.describeCluster("given", "")
	}
	if err != nil {
		d.cli.Close()
		return nil, err
	}
	return d, nil
}

// connect makes the client of a cluster; it does not wait for an answer.
func connect(o Options, prefix string, endpoints []string) (*DB, error) {
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:          endpoints,
		DialTimeout:        o.DialTimeout,
		MaxCallSendMsgSize: o.MaxRequestBytes + grpcOverhead,
		Logger:             zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("etcd: connect to %v: %w", endpoints, err)
	}
	return &DB{
		cli:       cli,
		o:         o,
		prefix:    prefix,
		prefixEnd: clientv3.GetPrefixRangeEnd(prefix),
		snaps:     map[int64]int{},
	}, nil
}

// revision returns the cluster's current revision, by a linearizable read
// of one key: it needs a leader and a quorum.
func (d *DB) revision(ctx context.Context) (int64, error) {
	resp, err := d.cli.Get(ctx, d.prefix, append([]clientv3.OpOption{clientv3.WithCountOnly()}, d.reads...)...)
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

// probe checks that the cluster answers with a quorum.
func (d *DB) probe(ctx context.Context) error {
	_, err := d.revision(ctx)
	return err
}

// ctx bounds one request by request_timeout.
func (d *DB) ctx() (context.Context, context.CancelFunc) { return d.ctxFrom(context.Background()) }

// ctxFrom bounds one request by request_timeout and by parent.
func (d *DB) ctxFrom(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, d.o.RequestTimeout)
}

// key is the etcd key of an engine key.
func (d *DB) key(k []byte) string { return d.prefix + string(k) }

// end is the etcd range end of an exclusive engine upper bound, nil
// meaning past every key of the engine.
func (d *DB) end(k []byte) string {
	if k == nil {
		return d.prefixEnd
	}
	return d.key(k)
}

// wrap names the operation and maps etcd's errors to the shared and this
// package's sentinels, keeping etcd's message and saying what to change.
func (d *DB) wrap(op string, err error) error {
	var sentinel error
	switch {
	case errors.Is(err, rpctypes.ErrNoSpace):
		// etcd then refuses writes until it is compacted, defragmented and
		// its NOSPACE alarm disarmed.
		sentinel = fmt.Errorf("%w: a member's backend reached its quota; raise [etcd] backend_quota (8 GiB is etcd's suggested maximum) or run with less data", engine.ErrNoSpace)
	case errors.Is(err, rpctypes.ErrTooManyOps), errors.Is(err, rpctypes.ErrRequestTooLarge),
		status.Code(err) == codes.ResourceExhausted:
		// Nothing of it was applied: batches are never split.
		sentinel = fmt.Errorf("%w: over [etcd] max_txn_ops distinct keys or max_request_bytes; commit smaller batches or raise them", engine.ErrTooLarge)
	case errors.Is(err, rpctypes.ErrCompacted):
		sentinel = ErrCompacted
	case errors.Is(err, context.DeadlineExceeded):
		sentinel = fmt.Errorf("%w (%v)", ErrTimeout, d.o.RequestTimeout)
	default:
		return fmt.Errorf("etcd: %s: %w", op, err)
	}
	return fmt.Errorf("%w: %s: %w", sentinel, op, err)
}

// Get implements engine.Backend.
func (d *DB) Get(key []byte) ([]byte, error) { return d.get(key) }

// get reads key now, or at the revision opts name.
func (d *DB) get(key []byte, opts ...clientv3.OpOption) ([]byte, error) {
	ctx, cancel := d.ctx()
	defer cancel()
	resp, err := d.cli.Get(ctx, d.key(key), append(opts, d.reads...)...)
	if err != nil {
		return nil, d.wrap("get", err)
	}
	if len(resp.Kvs) == 0 {
		return nil, engine.ErrNotFound
	}
	// The response was decoded into fresh memory, which the caller may own.
	if v := resp.Kvs[0].Value; v != nil {
		return v, nil
	}
	return []byte{}, nil
}

// Put implements engine.Backend.
func (d *DB) Put(key, value []byte) error {
	return d.do("put", clientv3.OpPut(d.key(key), string(value)))
}

// Delete implements engine.Backend.
func (d *DB) Delete(key []byte) error {
	return d.do("delete", clientv3.OpDelete(d.key(key)))
}

// DeleteRange implements engine.Backend with one etcd range delete: one
// Raft entry, atomic, however many keys it removes.
func (d *DB) DeleteRange(start, end []byte) error {
	if start != nil && end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	return d.do("delete range", clientv3.OpDelete(d.key(start), clientv3.WithRange(d.end(end))))
}

// do runs one write.
func (d *DB) do(name string, op clientv3.Op) error {
	ctx, cancel := d.ctx()
	defer cancel()
	if _, err := d.cli.Do(ctx, op); err != nil {
		return d.wrap(name, err)
	}
	return nil
}

// NewBatch implements engine.Backend.
func (d *DB) NewBatch() engine.BackendBatch { return &batch{d: d} }

// Close implements engine.Backend: it stops a local cluster's members, or
// just disconnects from a given cluster, whose data stays unless
// DropOnClose. The engine's wrapper calls it once, with no call in flight.
func (d *DB) Close() error {
	var errs []error
	if d.o.DropOnClose {
		ctx, cancel := d.ctx()
		if _, err := d.cli.Delete(ctx, d.prefix, clientv3.WithRange(d.prefixEnd)); err != nil {
			errs = append(errs, d.wrap("drop the prefix "+d.prefix+" on close", err))
		}
		cancel()
	}
	if d.profiles != nil {
		d.profiles.stop()
	}
	if d.local != nil {
		// The members are asked who leads before the client goes.
		errs = append(errs, d.local.stop(d.cli))
	}
	if err := d.cli.Close(); err != nil && !errors.Is(err, context.Canceled) {
		errs = append(errs, fmt.Errorf("etcd: close client: %w", err))
	}
	return errors.Join(errs...)
}
