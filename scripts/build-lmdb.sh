#!/usr/bin/env bash
# Builds LMDB 0.9.35 as a release library and installs it under PREFIX
# (default /usr/local) for the engine/lmdb cgo binding:
#
#   PREFIX/lib/liblmdb-tsbench.so.0.9.35 (and the .so.0, .so links)
#   PREFIX/include/lmdb-tsbench/lmdb.h
#   PREFIX/lib/pkgconfig/lmdb-tsbench.pc
#
# The source is the copy of LMDB that the Go module
# github.com/PowerDNS/lmdb-go v1.9.4 carries (mdb.c, midl.c and their
# headers): the Go module proxy serves it, the Go checksum database vouches
# for the module, and the four files are pinned by sha256 below. It is
# compiled as LMDB's own Makefile compiles its shared library (-O2 -g
# -pthread -fPIC), plus -DNDEBUG, which drops the mdb_assert checks, and
# -frecord-gcc-switches, so that the flags can be read back from the
# installed library.
#
# The names differ from Debian's liblmdb0 (liblmdb.so.0, lmdb.h, lmdb.pc)
# so that neither replaces the other: a program linked with this library
# records the soname liblmdb-tsbench.so.0, which Debian's cannot answer
# to, and finds the header through lmdb-tsbench.pc. Re-running is
# instant: a stamp keyed by this script, which holds the pins, skips an
# up-to-date install.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly VERSION=0.9.35
readonly SOVERSION=0
readonly NAME=lmdb-tsbench
readonly LIBRARY=lib$NAME.so.$VERSION
readonly MODULE=github.com/PowerDNS/lmdb-go@v1.9.4
# sha256 of the files of MODULE's lmdb/ folder that make the library.
readonly -A SHA256=(
	[mdb.c]=eb8b0fdde8f13bed1139ae899bcc7767e44490f6316ccede59b62392d1c0d717
	[midl.c]=91110543f2e84c516188c1e3960b1f504e1c60a4766027a782349c000276ca93
	[lmdb.h]=41424e4c183de5d8436a8aef4483983991e78903f362edf8cc1681b82f10cffb
	[midl.h]=cef8236dc7dce9b5346d212d31e8330f9158bacabe270b14ab1e99745db118c6
)

need sha256sum "install coreutils"
need flock "install util-linux"
lock lmdb

stampfile="$root/build/lmdb.stamp"
stamp="$PREFIX $(sha256sum "$0" | cut -d' ' -f1)"
if up_to_date "$stampfile" "$stamp" && [[ -f $PREFIX/lib/$LIBRARY && -f $PREFIX/include/$NAME/lmdb.h &&
	-f $PREFIX/lib/pkgconfig/$NAME.pc ]]; then
	exit 0
fi

need go "install Go (see go.mod for the version)"
need gcc "install gcc (apt-get install gcc)"
need nm "install binutils (apt-get install binutils)"
dir=$(cd "$root" && go mod download -json "$MODULE" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -n $dir ]] || die "go mod download $MODULE failed; check network access"
src="$dir/lmdb"
for f in "${!SHA256[@]}"; do
	check_sha256 "$src/$f" "${SHA256[$f]}"
done
grep -q "^#define MDB_VERSION_PATCH[[:space:]]*${VERSION##*.}\$" "$src/lmdb.h" ||
	die "$src/lmdb.h is not LMDB $VERSION"

echo "build-lmdb: compiling LMDB $VERSION"
work=$(mktemp -d "$root/build/lmdb-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
cflags=(-O2 -g -DNDEBUG -frecord-gcc-switches -pthread -fPIC -w)
gcc "${cflags[@]}" -c "$src/mdb.c" "$src/midl.c" || die "compilation failed"
# Only LMDB's API (mdb_*) is exported.
printf '{\n  global: mdb_*;\n  local: *;\n};\n' >exports.map
gcc -shared -pthread -o "$LIBRARY" -Wl,-soname,"lib$NAME.so.$SOVERSION" \
	-Wl,--version-script=exports.map -Wl,--no-undefined mdb.o midl.o || die "linking failed"
# A build with its checks on carries mdb_assert_fail's message.
! grep -q "Assertion '%.200s' failed" "$LIBRARY" || die "$LIBRARY has mdb_assert checks compiled in"

echo "build-lmdb: installing LMDB $VERSION into $PREFIX"
install_library "$LIBRARY" "$NAME" "$VERSION" "$SOVERSION"
as_root install -D -m 0644 "$src/lmdb.h" "$PREFIX/include/$NAME/lmdb.h"
write_pc "$NAME" "$VERSION" "LMDB from $MODULE's source, a release build (-O2 -DNDEBUG)" \
	"-l$NAME" "-I\${includedir}/$NAME"
refresh_linker build-lmdb
echo "$stamp" >"$stampfile"
echo "build-lmdb: done ($(nm -D --defined-only "$LIBRARY" | wc -l) exported symbols)"
