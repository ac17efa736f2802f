#!/usr/bin/env bash
# Builds the etcd server the etcd engine's local clusters run, and
# installs it under PREFIX (default /usr/local) as
#
#   PREFIX/bin/etcd-tsbench
#
# etcd's release of the Go module go.etcd.io/etcd/server/v3 that
# scripts/etcd/go.mod pins (3.6.16), compiled from the module's source as
# a small main of our own (scripts/etcd/main.go) that calls etcdmain.Main,
# the entry point of etcd's own binary. Every module it is built from is
# pinned by scripts/etcd/go.sum, which the Go checksum database vouches
# for: the build needs only the Go module proxy, and is refused (-mod=
# readonly) if go.sum lacks anything. It is built as etcd's releases are,
# static and without file paths (CGO_ENABLED=0, -trimpath). The nested
# module keeps etcd's dependencies out of the main go.mod, and out of its
# `go test ./...`.
#
# The name differs from Debian's etcd-server (/usr/bin/etcd, 3.4.23,
# which scripts/setup.sh also installs), so that neither replaces the
# other: the engine runs etcd-tsbench unless [etcd] binary names another
# (-set etcd.binary=etcd for Debian's). Re-running is instant: a stamp
# keyed by this script and the module's files skips an up-to-date
# install.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly NAME=etcd-tsbench
readonly MODULE=go.etcd.io/etcd/server/v3
src="$root/scripts/etcd"
binary="$PREFIX/bin/$NAME"

need sha256sum "install coreutils"
need flock "install util-linux"
lock etcd

stampfile="$stamps/etcd.stamp"
stamp="$PREFIX $(cat "$0" "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -d' ' -f1)"
if up_to_date "$stampfile" "$stamp" && [[ -x $binary ]]; then
	exit 0
fi

need go "install Go (see go.mod for the version)"
version=$(sed -n "s|^require $MODULE v\([0-9.]*\)\$|\1|p" "$src/go.mod")
[[ -n $version ]] || die "scripts/etcd/go.mod requires no release of $MODULE"

echo "build-etcd: building etcd $version from the Go module $MODULE"
work=$(mktemp -d "$root/build/etcd-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The flags on the command line override any GOFLAGS; GOWORK=off keeps a
# go.work elsewhere from changing the build.
(cd "$src" && GOWORK=off CGO_ENABLED=0 go build -mod=readonly -trimpath -buildvcs=false -o "$work/$NAME" .) ||
	die "go build of $MODULE $version failed; check network access to the Go module proxy"
got=$("$work/$NAME" --version | sed -n 's/^etcd Version: //p')
[[ $got == "$version" ]] || die "the built binary reports etcd version '$got', want $version"

echo "build-etcd: installing etcd $version into $binary"
# Renamed into place: overwriting the file in place would fail, or
# crash, while a member runs it.
as_root install -D -m 0755 "$work/$NAME" "$binary.new"
as_root mv -f "$binary.new" "$binary"
[[ $(command -v "$NAME") == "$binary" ]] ||
	echo "build-etcd: add $PREFIX/bin to PATH before any other $NAME, or set [etcd] binary = \"$binary\"" >&2
record "$stampfile" "$stamp"
