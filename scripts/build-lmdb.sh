#!/usr/bin/env bash
# Builds LMDB 0.9.33 as a release library and installs it under PREFIX
# (default /usr/local) for the engine/lmdb cgo binding:
#
#   PREFIX/lib/liblmdb-tsbench.so.0.9.33 (and the .so.0, .so links)
#   PREFIX/include/lmdb-tsbench/lmdb.h
#   PREFIX/lib/pkgconfig/lmdb-tsbench.pc
#
# The source is the copy of LMDB that the Go module
# github.com/PowerDNS/lmdb-go v1.9.3 carries (mdb.c, midl.c and their
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

readonly VERSION=0.9.33
readonly SOVERSION=0
readonly NAME=lmdb-tsbench
readonly LIBRARY=lib$NAME.so.$VERSION
readonly MODULE=github.com/PowerDNS/lmdb-go@v1.9.3
# sha256 of the files of MODULE's lmdb/ folder that make the library.
readonly -A SHA256=(
	[mdb.c]=2fd45dcef13f94ecc6650da19f341af38cceb53b9d3b88e854f621cc319dc1b1
	[midl.c]=4ffabc6a9b26bc290723e1ca9fa48aa620f4c72fc289bb2bb9da639dd38499ff
	[lmdb.h]=ea935082e5d5ea7ba685ee599c617f28353060710b0369d220a55f64bb07f1c2
	[midl.h]=198f65807003d03d15e1cc280f4a7974e5404f6dbae8435d08c1e9c88e781d7b
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
