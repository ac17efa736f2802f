// Package release installs releases of an engine's C library beside the
// one this program links (engine.Driver.Release), with the set-up script
// of the checkout the program runs in or beside, and compares each with
// the functions the program calls before any process loads it.
package release

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/libinfo"
	"github.com/tsbench/storage/internal/builddir"
)

// Installer is how set-up installs the releases of one library.
type Installer struct {
	// Script is the set-up script, relative to the checkout
	// ("scripts/install-rocksdb.sh"). Run with a version, it installs
	// that release's library under build/Dir/VERSION/lib by the name
	// this program links it by, instantly when it is there; it exits 2
	// with one line for a release it does not pin or a file whose sha256
	// differs, leaving nothing half-installed.
	Script string
	// Dir is the folder under build/ the releases go in ("rocksdb").
	Dir string
	// Prefix begins the names of the library's functions ("rocksdb_"),
	// those compared.
	Prefix string
}

// Install installs release version where it is not yet and returns it:
// its directory, and its Build as describe reads it from the library's
// file; and the functions beginning with Prefix that this program calls
// and linked, the file of the library it links, defines but the
// release's library does not, sorted. The release's Version is version.
func (in Installer) Install(version, linked string, describe func(path string) string) (engine.Release, []string, error) {
	build := builddir.Find("")
	script := filepath.Join(filepath.Dir(build), filepath.FromSlash(in.Script))
	if _, err := os.Stat(script); build == "" || err != nil {
		return engine.Release{}, nil, fmt.Errorf("no %s in a checkout beside this binary or the current directory to install it with: run from the checkout, which make setup prepared", in.Script)
	}
	cmd := exec.Command(script, version)
	var stderr bytes.Buffer
	cmd.Stdout = os.Stderr // what it fetches or compiles, as it goes
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return engine.Release{}, nil, errors.New(in.ScriptError(stderr.String(), err))
	}
	r := engine.Release{Version: version, Dir: filepath.Join(build, in.Dir, version, "lib")}
	soname, err := libinfo.Soname(linked)
	if err != nil {
		return r, nil, err
	}
	file := filepath.Join(r.Dir, soname)
	lacks, err := libinfo.Lacks(linked, file, in.Prefix)
	if err != nil {
		return r, nil, err
	}
	r.Build = describe(file)
	return r, lacks, nil
}

// ScriptError is the line the script said what went wrong in, its first
// own line ("install-rocksdb: ..."; a tool's output may follow it), or
// else how it ended (err) and what it wrote.
func (in Installer) ScriptError(stderr string, err error) string {
	prefix := strings.TrimSuffix(filepath.Base(in.Script), ".sh") + ": "
	for line := range strings.SplitSeq(stderr, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return fmt.Sprintf("%s failed: %v: %s", in.Script, err, strings.TrimSpace(stderr))
}
