package etcd

import (
	"context"
	"debug/buildinfo"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/storage/engine/internal/modversion"
)

// clientModule is the Go client linked in; it speaks to etcd 3.4 and
// later servers alike.
const clientModule = "go.etcd.io/etcd/client/v3"

// serverModule is the Go module etcd's server is built from, which the
// build information of a binary built as a module (scripts/build-etcd.sh)
// names.
const serverModule = "go.etcd.io/etcd/server/v3"

// minMinor is the oldest etcd 3 minor release the local cluster runs:
// --unsafe-no-fsync and the zap logger flags came with 3.4.
const minMinor = 4

// binaryAdvice ends ErrNotEtcd's errors.
const binaryAdvice = "name etcd 3.4 or later (etcd is Debian's 3.4), or leave binary unset for the " + DefaultBinary + " that make setup builds"

// versionTimeout bounds "etcd --version", which prints and exits at once.
const versionTimeout = 10 * time.Second

var versionLine = regexp.MustCompile(`(?m)^etcd Version: (\d+)\.(\d+)\.(\d+)(\S*)$`)

// etcdVersion is what an etcd binary reports of itself.
type etcdVersion struct {
	full         string // "3.6.16"
	major, minor int
}

// release is the version's major.minor release, as "3.6".
func (v etcdVersion) release() string { return fmt.Sprintf("%d.%d", v.major, v.minor) }

// versionOf runs "bin --version", bin a path, and reads the version of
// etcd it prints. A binary that is not etcd, or an etcd older than
// 3.minMinor, fails with ErrNotEtcd.
func versionOf(bin string) (etcdVersion, error) {
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = memberEnv()
	out, err := cmd.Output()
	m := versionLine.FindSubmatch(out)
	if m == nil {
		why := "printed no etcd version"
		if err != nil {
			why = err.Error()
		}
		return etcdVersion{}, fmt.Errorf("%w: %s --version: %s; %s", ErrNotEtcd, bin, why, binaryAdvice)
	}
	v := etcdVersion{full: string(m[1]) + "." + string(m[2]) + "." + string(m[3]) + string(m[4])}
	v.major, _ = strconv.Atoi(string(m[1]))
	v.minor, _ = strconv.Atoi(string(m[2]))
	if v.major != 3 || v.minor < minMinor {
		return v, fmt.Errorf("%w: %s is etcd %s, older than 3.%d; %s", ErrNotEtcd, bin, v.full, minMinor, binaryAdvice)
	}
	return v, nil
}

// defaultVersion is the default binary's version, read once.
var defaultVersion = sync.OnceValues(func() (etcdVersion, error) {
	path, err := exec.LookPath(DefaultBinary)
	if err != nil {
		return etcdVersion{}, err
	}
	return versionOf(path)
})

// Version reports the version of the default etcd binary (DefaultBinary
// in PATH, which make setup builds), such as "3.6.16"; "" without one.
// Local clusters run it unless [etcd] binary names another; what a
// cluster's members report, given clusters' included, is in Describe.
func Version() string {
	v, _ := defaultVersion()
	return v.full
}

// Build says how the default etcd binary was built, read from the Go
// build information inside it, and which client module talks to it:
// "release, Go binary /usr/local/bin/etcd-tsbench of go.etcd.io/etcd/server/v3
// v3.6.16 built with go1.26.8 (gc, -trimpath, CGO_ENABLED=0); client Go
// module v3.6.16". A binary built with the race detector is reported as a
// debug build.
func Build() string {
	client := "client Go module " + modversion.Of(clientModule, "v3.6.16")
	path, err := exec.LookPath(DefaultBinary)
	if err != nil {
		return "no " + DefaultBinary + " binary (make setup builds it); " + client
	}
	return buildOf(path) + "; " + client
}

// buildOf says how the etcd binary at path was built.
func buildOf(path string) string {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("unknown build of %s (%v)", path, err)
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
		case s.Key == "CGO_ENABLED" && s.Value == "0":
			flags = append(flags, "CGO_ENABLED=0")
		}
	}
	from := ""
	for _, d := range bi.Deps {
		if d.Path == serverModule {
			from = " of " + serverModule + " " + d.Version
		}
	}
	return fmt.Sprintf("%s, Go binary %s%s built with %s (%s)", kind, path, from, bi.GoVersion, strings.Join(flags, ", "))
}
