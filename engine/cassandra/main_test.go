package cassandra_test

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// parallelTests is how many of this package's tests run at once unless
// -test.parallel says otherwise: every parallel test, since each mostly
// waits on JVMs, its own node's or a second process's, which the default
// (GOMAXPROCS, 2 in CI) would run two at a time.
const parallelTests = 4

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(parallelTests))
	}
	os.Exit(m.Run())
}
