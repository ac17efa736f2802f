// Command etcd is etcd's server, built from the Go module
// go.etcd.io/etcd/server/v3 at the version go.mod pins, for the etcd
// engine's local clusters (scripts/build-etcd.sh).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
