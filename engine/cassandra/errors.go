package cassandra

import "errors"

var (
	// ErrNoJava is returned by Open when it should start a local cluster
	// and finds no java executable.
	ErrNoJava = errors.New("cassandra: no java found; install Debian's openjdk-17-jre-headless (make setup does), set [cassandra] java, or give [cassandra] hosts of a running cluster")
	// ErrNoServer is returned by Open when it should start a local cluster
	// and finds no classpath file, or a jar it names is missing.
	ErrNoServer = errors.New("cassandra: the Cassandra server's jars are not resolved; run scripts/build-cassandra.sh (make setup does) or set [cassandra] classpath")
	// ErrStart is returned by Open when a node of the local cluster does
	// not start, or its addresses or ports are taken; the message quotes
	// the end of the node's log.
	ErrStart = errors.New("cassandra: the local cluster did not start")
	// ErrUnreachable is returned by Open when no host of a given cluster
	// answers.
	ErrUnreachable = errors.New("cassandra: cluster unreachable; check [cassandra] hosts and that the cluster is up")
	// ErrTimeout is returned for a request that did not complete in time:
	// too few replicas answered within Cassandra's own timeout, or none
	// within request_timeout. A write that timed out may have been
	// applied.
	ErrTimeout = errors.New("cassandra: request timed out; check that enough replicas are up for the consistency level, or raise [cassandra] request_timeout")
	// ErrUnavailable is returned when the coordinator knows too few
	// replicas are alive for the consistency level: nothing was written.
	ErrUnavailable = errors.New("cassandra: too few replicas alive for the consistency level; restart the nodes or lower [cassandra] consistency")
	// ErrNodeExited is returned by Sizes and Compact when a node of the
	// local cluster has exited.
	ErrNodeExited = errors.New("cassandra: a node of the local cluster has exited; close and reopen the directory to restart it")
	// ErrLayout is returned by Open when the engine's keyspace or table
	// exists on the cluster with another layout: another replication
	// factor, or other columns.
	ErrLayout = errors.New("cassandra: the keyspace is not laid out as the engine's")
	// ErrJMX is returned by Compact and Metrics when a flush, compaction
	// or metrics request fails on a node, or the probe JVM that sends
	// them over JMX does; the message quotes why.
	ErrJMX = errors.New("cassandra: a request over JMX failed")
)
