package lmdb

import (
	"fmt"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/release"
)

// installer builds a release of LMDB from the source a version of
// lmdb-go carries, under build/lmdb/VERSION.
var installer = release.Installer{Script: "scripts/build-lmdb.sh", Dir: "lmdb", Prefix: "mdb_"}

// installRelease is the driver's Release: it builds LMDB version, and
// refuses it if its library lacks a function this program calls.
func installRelease(version string) (engine.Release, error) {
	linked, err := libraryFile()
	if err != nil {
		return engine.Release{}, err
	}
	r, lacks, err := installer.Install(version, linked, describe)
	if err != nil {
		return r, err
	}
	if len(lacks) > 0 {
		return r, fmt.Errorf("its library lacks %s, which engine/lmdb calls: choose a later release", strings.Join(lacks, ", "))
	}
	return r, nil
}
