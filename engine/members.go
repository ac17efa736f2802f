package engine

// Members is implemented by a backend that runs a local cluster of server
// processes, each holding a copy of the data: etcd's members, Cassandra's
// nodes. It lets a check kill one of them while the others serve, as the
// crash check's -kill member does, and read what that one holds on its
// own once it is back.
type Members interface {
	// Members is how many server processes the engine runs, 0 for a
	// cluster it was given rather than started.
	Members() int
	// KillMember kills member i (from 0) with SIGKILL and returns once
	// it has exited. The engine goes on serving from the others, as far
	// as its replication and consistency settings allow.
	KillMember(i int) error
	// RestartMember starts killed member i again over its data and
	// returns once it serves and holds what the others accepted while it
	// was down (etcd: its raft log applied up to the leader's; Cassandra:
	// the hints the other nodes kept for it delivered), or fails when
	// that does not happen in time.
	RestartMember(i int) error
	// Alone calls read with a Reader served by member i's own copy of the
	// data and no other's, which every member but i must leave alone
	// until read returns (etcd: serializable reads at member i;
	// Cassandra: the other nodes stopped meanwhile and started again
	// after, reads at consistency ONE through node i).
	Alone(i int, read func(Reader) error) error
}
