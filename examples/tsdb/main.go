package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
)

// shutdownTimeout bounds the wait for requests in flight at shutdown.
const shutdownTimeout = 10 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], nil)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "tsdb:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "tsdb:", err)
		os.Exit(1)
	}
}

type config struct {
	engine            string
	dir               string
	listen            string
	sync              string
	retention         time.Duration
	retentionInterval time.Duration
	maxBody           int64
	maxPoints         int
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("tsdb", flag.ContinueOnError)
	fs.StringVar(&c.engine, "engine", "pebble", "storage engine: "+strings.Join(inProcess(), ", "))
	fs.StringVar(&c.dir, "dir", "", "directory of the database, created if absent (required)")
	fs.StringVar(&c.listen, "listen", "127.0.0.1:8086", "address to serve HTTP on; loopback unless another host is named")
	fs.StringVar(&c.sync, "sync", string(engine.SyncBatch), "durability of each write: batch (on disk when acknowledged) or none")
	fs.DurationVar(&c.retention, "retention", 0, "age after which points are deleted, such as 24h; 0 keeps them")
	fs.DurationVar(&c.retentionInterval, "retention-interval", time.Minute, "time between retention passes")
	fs.Int64Var(&c.maxBody, "max-body", 16<<20, "largest /write body in bytes")
	fs.IntVar(&c.maxPoints, "max-points", 100_000, "most points, or buckets, one query returns")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, fmt.Errorf("%w: %w", errUsage, err)
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	case c.dir == "":
		return c, fmt.Errorf("%w: -dir is required", errUsage)
	case c.retention < 0:
		return c, fmt.Errorf("%w: -retention %v is negative", errUsage, c.retention)
	case c.retentionInterval <= 0:
		return c, fmt.Errorf("%w: -retention-interval %v is not positive", errUsage, c.retentionInterval)
	case c.maxBody <= 0 || c.maxPoints <= 0:
		return c, fmt.Errorf("%w: -max-body and -max-points must be above 0", errUsage)
	}
	return c, nil
}

// run serves the database that args describe until ctx is done, then shuts
// down: the HTTP server (waiting for requests in flight), retention, the
// engine. listening, if not nil, is told the address served.
func run(ctx context.Context, args []string, listening func(net.Addr)) (err error) {
	c, err := parseFlags(args)
	if err != nil {
		return err
	}
	// Listening first: a port in use leaves no new store behind.
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return fmt.Errorf("%w (choose another -listen address)", err)
	}
	defer ln.Close() // Serve closes it too; this one is for a failed open
	db, err := engine.Open(c.engine, c.dir, &engine.Options{Sync: engine.SyncMode(c.sync)})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("close engine: %w", cerr))
		}
	}()
	st, err := openStore(db)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           (&server{st: st, retention: c.retention, maxBody: c.maxBody, maxPoints: c.maxPoints}).handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	rctx, stopRetention := context.WithCancel(ctx)
	var retention sync.WaitGroup
	defer func() {
		stopRetention()
		retention.Wait()
	}()
	if c.retention > 0 {
		retention.Go(func() { st.expireEvery(rctx, c.retention, c.retentionInterval) })
	}

	log.Printf("tsdb: engine %s in %s, serving http://%s", c.engine, c.dir, ln.Addr())
	if listening != nil {
		listening(ln.Addr())
	}
	select {
	case <-ctx.Done():
	case err := <-served:
		return fmt.Errorf("serve HTTP: %w", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shut down HTTP server: %w", err)
	}
	log.Printf("tsdb: shut down")
	return nil
}

// inProcess are the engines this program can open: all registered but
// those that run in a process of their own (the JVM stores).
func inProcess() []string {
	var names []string
	for _, n := range engine.Names() {
		if d, err := engine.Lookup(n); err == nil && d.Process == nil {
			names = append(names, n)
		}
	}
	return names
}
