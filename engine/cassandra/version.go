package cassandra

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tsbench/storage/engine/internal/modversion"
)

// driverModule is the Go driver linked in.
const driverModule = "github.com/apache/cassandra-gocql-driver/v2"

// serverJar is the cassandra-all jar the classpath file names, "" without
// one.
var serverJar = sync.OnceValue(func() string {
	f := findClasspath()
	if f == "" {
		return ""
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return ""
	}
	for _, jar := range strings.Split(strings.TrimSpace(string(b)), ":") {
		if strings.HasPrefix(filepath.Base(jar), "cassandra-all-") {
			return jar
		}
	}
	return ""
})

// Version reports the version of the Cassandra server that local
// clusters run, from its jar's name, such as "5.0.9"; "" without the
// jars. A given cluster's own version is in Describe.
func Version() string {
	jar := serverJar()
	if jar == "" {
		return "" // filepath.Base would make it "."
	}
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(jar), "cassandra-all-"), ".jar")
}

// Build says where the server's jar came from and which driver talks to
// it: "release, cassandra-all 5.0.9 from Maven Central (~/.m2/...);
// gocql Go module v2.1.2".
func Build() string {
	driver := "gocql Go module " + modversion.Of(driverModule, "v2.1.2")
	jar := serverJar()
	if jar == "" {
		return "release, no cassandra-all resolved (scripts/build-cassandra.sh); " + driver
	}
	return "release, cassandra-all " + Version() + " from Maven Central (" + jar + "); " + driver
}
