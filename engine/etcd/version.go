package etcd

import (
	"debug/buildinfo"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"

	"github.com/tsbench/storage/engine/internal/modversion"
)

// clientModule is the Go client linked in; v3.5 clients speak to 3.4
// servers.
const clientModule = "go.etcd.io/etcd/client/v3"

// binaryVersion runs "etcd --version" on the default binary once.
var binaryVersion = sync.OnceValues(func() (string, error) {
	out, err := exec.Command(DefaultBinary, "--version").Output()
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`etcd Version: (\S+)`).FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("no version in %q", out)
	}
	return string(m[1]), nil
})

// Version reports the version of the etcd binary in PATH, which local
// clusters run, such as "3.4.23"; "" without one. A given cluster's own
// version is in Describe.
func Version() string {
	v, _ := binaryVersion()
	return v
}

// Build says how the etcd binary in PATH was built, read from the Go
// build information inside it, and which client module talks to it:
// "release, Go binary /usr/bin/etcd built with go1.19.8 (gc, -trimpath);
// client Go module v3.5.35". A binary built with the race detector is
// reported as a debug build.
func Build() string {
	client := "client Go module " + modversion.Of(clientModule, "v3.5.35")
	path, err := exec.LookPath(DefaultBinary)
	if err != nil {
		return "no etcd binary; " + client
	}
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("unknown build of %s (%v); %s", path, err, client)
	}
	kind, flags := "release", []string{}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "-race" && s.Value == "true":
			kind = "debug"
			flags = append(flags, "-race")
		case s.Key == "-compiler":
			flags = append(flags, s.Value)
		case s.Key == "-trimpath" && s.Value == "true":
			flags = append(flags, "-trimpath")
		}
	}
	return fmt.Sprintf("%s, Go binary %s built with %s (%s); %s", kind, path, bi.GoVersion, strings.Join(flags, ", "), client)
}
