package etcd

import "errors"

var (
	// ErrNoEtcd is returned by Open when it should start a local cluster
	// and finds no etcd binary.
	ErrNoEtcd = errors.New("etcd: no etcd binary found; run make setup (it builds etcd 3.6 as etcd-tsbench), set [etcd] binary (etcd for Debian's 3.4), or give [etcd] endpoints of a running cluster")
	// ErrNotEtcd is returned by Open when the binary it should start a
	// local cluster with does not report an etcd version of 3.4 or later
	// (etcd --version).
	ErrNotEtcd = errors.New("etcd: [etcd] binary is not an etcd server the local cluster can run")
	// ErrStart is returned by Open when the local cluster's members do not
	// start or do not become healthy; the message quotes the member's log.
	ErrStart = errors.New("etcd: the local cluster did not start")
	// ErrUnreachable is returned by Open when no endpoint answers, or the
	// cluster has no quorum, within dial_timeout.
	ErrUnreachable = errors.New("etcd: cluster unreachable; check [etcd] endpoints and that the cluster is up and has a quorum")
	// ErrCompacted is returned by an iterator whose snapshot revision was
	// compacted away by another client or the cluster's auto-compaction.
	ErrCompacted = errors.New("etcd: the iterator's snapshot was compacted away by another client; open a new iterator")
	// ErrMemberExited is returned by Sizes when a member of the local
	// cluster has exited: the others keep serving while they have a
	// quorum, but its status, and so the cluster's size, is unknown.
	ErrMemberExited = errors.New("etcd: a member of the local cluster has exited; close and reopen the directory to restart it")
	// ErrTimeout is returned for a request that did not complete within
	// request_timeout.
	ErrTimeout = errors.New("etcd: request timed out; check that the cluster has a quorum, or raise [etcd] request_timeout")
)
