package cassandra

// UseKeyspace writes into dir, an empty directory, the layout of an
// engine on the given cluster at hosts whose data is in keyspace, which
// exists with the engine's table: Open there then uses it rather than
// make a keyspace. The tests reuse keyspaces with it.
func UseKeyspace(dir string, hosts []string, keyspace string) error {
	return layout{Keyspace: keyspace, PrefixLength: DefaultPrefixLength, Hosts: hosts}.write(dir)
}

// KeyspaceIn returns the keyspace of the engine whose directory is dir.
func KeyspaceIn(dir string) (string, error) {
	l, _, err := readLayout(dir)
	return l.Keyspace, err
}
