#!/usr/bin/env bash
# Builds LMDB as a release library for the engine/lmdb cgo binding:
#
#   scripts/build-lmdb.sh           the default release, 0.9.35, under
#                                   PREFIX (default /usr/local):
#     PREFIX/lib/liblmdb-tsbench.so.0.9.35 (and the .so.0, .so links)
#     PREFIX/include/lmdb-tsbench/lmdb.h
#     PREFIX/lib/pkgconfig/lmdb-tsbench.pc
#   scripts/build-lmdb.sh VERSION   another release, for -engine
#                                   lmdb@VERSION, under build/:
#     build/lmdb/VERSION/lib/liblmdb-tsbench.so.0  loaded by a benchmark's
#                                   child through LD_LIBRARY_PATH
#     build/lmdb/VERSION/include/lmdb-tsbench/lmdb.h
#
# The source is the copy of LMDB that a version of the Go module
# github.com/PowerDNS/lmdb-go carries (mdb.c, midl.c and their headers;
# v1.9.4 carries 0.9.35): the Go module proxy serves it, the Go checksum
# database vouches for the module, and the four files are pinned by
# sha256 below. It is compiled as LMDB's own Makefile compiles its shared
# library (-O2 -g -pthread -fPIC), plus -DNDEBUG, which drops the
# mdb_assert checks, and -frecord-gcc-switches, so that the flags can be
# read back from the installed library.
#
# The names differ from Debian's liblmdb0 (liblmdb.so.0, lmdb.h, lmdb.pc)
# so that neither replaces the other: a program linked with this library
# records the soname liblmdb-tsbench.so.0, which Debian's cannot answer
# to, and finds the header through lmdb-tsbench.pc. Re-running is
# instant: a stamp keyed by this script, which holds the pins, skips an
# up-to-date install. A versioned release is built in a temporary folder
# and renamed into place, so a failure leaves nothing half-installed.
#
# Exit status 2 means a bad request: a release not in the table below, or
# a file whose sha256 differs from its pin.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly DEFAULT=0.9.35
readonly SOVERSION=0
readonly NAME=lmdb-tsbench
# The LMDB releases lmdb-go's versions carry (the Go module proxy serves
# exact versions, not the list of them), each with the sha256 of the
# files of its lmdb/ folder that make the library: mdb.c, midl.c, lmdb.h
# and midl.h.
readonly RELEASES="
0.9.19 v1.8.0 b673aa0ae39919eca7c7db262599392674541f878bd76a55ba0725cefb50e54f 4ffabc6a9b26bc290723e1ca9fa48aa620f4c72fc289bb2bb9da639dd38499ff 1f01986ca5e85b15f1055c85b32dcbb7655e1e2177be1ddd33b5810eac510f2f 198f65807003d03d15e1cc280f4a7974e5404f6dbae8435d08c1e9c88e781d7b
0.9.28 v1.9.0 ddeab4a89602c64d6915ccd1195c41e9e1149e67c6f7f8cf996aa16b0c653d65 4ffabc6a9b26bc290723e1ca9fa48aa620f4c72fc289bb2bb9da639dd38499ff bfd0fa848dee5f881b82c0bb4b21258a7d8b8ab9a054060968b280acbf29be8d 198f65807003d03d15e1cc280f4a7974e5404f6dbae8435d08c1e9c88e781d7b
0.9.31 v1.9.2 25d47ee49975808a4ef923ea711fe29dc958d111e6fa2462fc36ab95923336cc 4ffabc6a9b26bc290723e1ca9fa48aa620f4c72fc289bb2bb9da639dd38499ff 8316fc4df7f9c0a8f664c68e79900854f20726c0ee05510bd828c7818f88f9a7 198f65807003d03d15e1cc280f4a7974e5404f6dbae8435d08c1e9c88e781d7b
0.9.33 v1.9.3 2fd45dcef13f94ecc6650da19f341af38cceb53b9d3b88e854f621cc319dc1b1 4ffabc6a9b26bc290723e1ca9fa48aa620f4c72fc289bb2bb9da639dd38499ff ea935082e5d5ea7ba685ee599c617f28353060710b0369d220a55f64bb07f1c2 198f65807003d03d15e1cc280f4a7974e5404f6dbae8435d08c1e9c88e781d7b
0.9.35 v1.9.4 eb8b0fdde8f13bed1139ae899bcc7767e44490f6316ccede59b62392d1c0d717 91110543f2e84c516188c1e3960b1f504e1c60a4766027a782349c000276ca93 41424e4c183de5d8436a8aef4483983991e78903f362edf8cc1681b82f10cffb cef8236dc7dce9b5346d212d31e8330f9158bacabe270b14ab1e99745db118c6
"

# bad says what is wrong with the request in one line and exits 2.
bad() {
	echo "$script: $*" >&2
	exit 2
}

VERSION=${1:-$DEFAULT}
(($# <= 1)) || bad "usage: $0 [VERSION]"
row=$(awk -v v="$VERSION" '$1 == v' <<<"$RELEASES")
[[ -n $row ]] || bad "LMDB $VERSION is not a release this script builds: choose one of $(awk 'NF {printf "%s%s", s, $1; s = ", "}' <<<"$RELEASES")"
read -r _ module mdb_c midl_c lmdb_h midl_h <<<"$row"
readonly VERSION LIBRARY=lib$NAME.so.$VERSION MODULE=github.com/PowerDNS/lmdb-go@$module
readonly -A SHA256=([mdb.c]=$mdb_c [midl.c]=$midl_c [lmdb.h]=$lmdb_h [midl.h]=$midl_h)

need sha256sum "install coreutils"
need flock "install util-linux"
lock lmdb

if [[ $# -eq 1 ]]; then
	dest="$root/build/lmdb/$VERSION"
	stampfile="$dest/stamp"
	stamp="$(sha256sum "$0" | cut -d' ' -f1)"
	up_to_date "$stampfile" "$stamp" && [[ -f $dest/lib/lib$NAME.so.$SOVERSION ]] && exit 0
else
	stampfile="$stamps/lmdb.stamp"
	stamp="$PREFIX $(sha256sum "$0" | cut -d' ' -f1)"
	if up_to_date "$stampfile" "$stamp" && [[ -f $PREFIX/lib/$LIBRARY && -f $PREFIX/include/$NAME/lmdb.h &&
		-f $PREFIX/lib/pkgconfig/$NAME.pc ]]; then
		exit 0
	fi
fi

need go "install Go (see go.mod for the version)"
need gcc "install gcc (apt-get install gcc)"
need nm "install binutils (apt-get install binutils)"
dir=$(cd "$root" && go mod download -json "$MODULE" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -n $dir ]] || die "go mod download $MODULE failed; check network access"
src="$dir/lmdb"
for f in "${!SHA256[@]}"; do
	got=$(sha256sum "$src/$f" | cut -d' ' -f1)
	[[ $got == "${SHA256[$f]}" ]] ||
		bad "$src/$f has sha256 $got, want ${SHA256[$f]}: the Go module cache holds another $MODULE; go clean -modcache fetches it again"
done
grep -q "^#define MDB_VERSION_PATCH[[:space:]]*${VERSION##*.}\$" "$src/lmdb.h" ||
	die "$src/lmdb.h is not LMDB $VERSION"

echo "build-lmdb: compiling LMDB $VERSION"
mkdir -p "$root/build"
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

if [[ $# -eq 1 ]]; then
	echo "build-lmdb: installing LMDB $VERSION into $dest"
	install -D -m 0755 "$LIBRARY" "release/lib/lib$NAME.so.$SOVERSION"
	install -D -m 0644 "$src/lmdb.h" "release/include/$NAME/lmdb.h"
	echo "$stamp" >release/stamp
	mkdir -p "$root/build/lmdb"
	# An outdated install is moved aside, not overwritten: a running
	# benchmark may have its library loaded.
	if [[ -e $dest ]]; then
		mv "$dest" old
	fi
	mv -T release "$dest"
	exit 0
fi

echo "build-lmdb: installing LMDB $VERSION into $PREFIX"
install_library "$LIBRARY" "$NAME" "$VERSION" "$SOVERSION"
as_root install -D -m 0644 "$src/lmdb.h" "$PREFIX/include/$NAME/lmdb.h"
write_pc "$NAME" "$VERSION" "LMDB from $MODULE's source, a release build (-O2 -DNDEBUG)" \
	"-l$NAME" "-I\${includedir}/$NAME"
refresh_linker build-lmdb
record "$stampfile" "$stamp"
echo "build-lmdb: done ($(nm -D --defined-only "$LIBRARY" | wc -l) exported symbols)"
