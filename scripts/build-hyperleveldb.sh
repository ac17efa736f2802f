#!/usr/bin/env bash
# Builds HyperLevelDB from source into build/hyperleveldb/ for the
# engine/hyperleveldb cgo binding:
#
#   build/hyperleveldb/libhyperleveldb.a           static library
#   build/hyperleveldb/include/hyperleveldb/c.h    its C API header
#
# HyperLevelDB is a LevelDB fork with the same C symbols (leveldb_*) and
# C++ namespace (leveldb::), so linked naively beside Debian's LevelDB one
# would silently run the other's code. Here the namespace is renamed with
# -Dleveldb=hyperleveldb, every C API name gets a hyper prefix through a
# force-included header, the objects are linked into one relocatable object
# and every symbol but the renamed C API is made local.
#
# The source ships only inside the npm package leveldown-hyper@2.0.0; its
# checksum is pinned below. One file of ours is compiled in beside it,
# scripts/hyperleveldb-compact.cc (see there why). Re-running is quick: a
# stamp keyed by the checksums of the tarball and of both scripts skips an
# up-to-date build.
set -euo pipefail

readonly PACKAGE=leveldown-hyper@2.0.0
readonly TARBALL=leveldown-hyper-2.0.0.tgz
readonly SHA256=a68babb9f256d0651fcbcfe3ef8e45ee3f7a7fb3e4bcbe865e4566f0ac14e035
readonly SRC=package/deps/leveldb/leveldb-hyper-1.0.2
readonly CONF=package/deps/leveldb/leveldb-hyper-conf/linux

root=$(cd "$(dirname "$0")/.." && pwd)
extra="$root/scripts/hyperleveldb-compact.cc"
download="$root/build/download"
out="$root/build/hyperleveldb"

die() {
	echo "build-hyperleveldb: $*" >&2
	exit 1
}

need() {
	command -v "$1" >/dev/null || die "$1 not found; $2"
}

need sha256sum "install coreutils"
need flock "install util-linux"
# One build at a time: a second caller waits, then finds it up to date.
mkdir -p "$download"
exec 9>"$root/build/.hyperleveldb.lock"
flock 9
stamp="$SHA256 $(cat "$0" "$extra" | sha256sum | cut -d' ' -f1)"
if [[ -f $out/libhyperleveldb.a && -f $out/include/hyperleveldb/c.h &&
	"$(cat "$out/stamp" 2>/dev/null)" == "$stamp" ]]; then
	exit 0
fi

need g++ "install g++ (apt-get install g++)"
for tool in ld objcopy ar nm; do
	need "$tool" "install binutils (apt-get install binutils)"
done
[[ -f /usr/include/snappy.h ]] || die "snappy.h not found; install libsnappy-dev (apt-get install libsnappy-dev)"

if [[ ! -f $download/$TARBALL ]]; then
	need npm "install npm (apt-get install npm), or copy $TARBALL into $download"
	echo "build-hyperleveldb: fetching $PACKAGE"
	(cd "$download" && npm pack --silent --ignore-scripts "$PACKAGE" >/dev/null) ||
		die "npm pack $PACKAGE failed; check network access, or copy $TARBALL into $download"
fi
got=$(sha256sum "$download/$TARBALL" | cut -d' ' -f1)
[[ $got == "$SHA256" ]] ||
	die "$download/$TARBALL has sha256 $got, want $SHA256; delete it to fetch it again"

echo "build-hyperleveldb: compiling HyperLevelDB into $out"
work=$(mktemp -d "$root/build/hyperleveldb-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$download/$TARBALL" -C "$work"
src="$work/$SRC"

# Every leveldb_* name of the C API (functions, types, enum constants)
# becomes hyperleveldb_*: as macros while compiling the library, and
# spelled out in the header the binding includes, whose include guard
# also changes so it can sit beside LevelDB's own c.h.
grep -o '\bleveldb_[A-Za-z0-9_]*' "$src/hyperleveldb/c.h" | sort -u |
	sed 's/.*/#define & hyper&/' >"$work/rename.h"
mkdir -p "$work/include/hyperleveldb"
sed -e 's/\bleveldb_/hyperleveldb_/g' -e 's/STORAGE_LEVELDB_INCLUDE_C_H_/HYPERLEVELDB_C_H_/' \
	"$src/hyperleveldb/c.h" >"$work/include/hyperleveldb/c.h"

# The library's sources are the ones its own Makefile.am lists, plus ours;
# each basename is unique, so the objects land side by side in obj/.
mapfile -t sources < <(sed -n "s|^libhyperleveldb_la_SOURCES += |$src/|p" "$src/Makefile.am")
((${#sources[@]} > 0)) || die "no sources found in $src/Makefile.am"
sources+=("$extra")
cxxflags=(
	-O2 -fPIC -DNDEBUG -pthread -std=gnu++11 -w
	-DOS_LINUX -DLEVELDB_PLATFORM_POSIX -DHAVE_CONFIG_H=1 -DSNAPPY
	-Dleveldb=hyperleveldb -include "$work/rename.h"
	-I"$work/$CONF" -I"$src"
)
mkdir "$work/obj"
(cd "$work/obj" && printf '%s\n' "${sources[@]}" |
	xargs -P "$(nproc)" -n 1 g++ "${cxxflags[@]}" -c) || die "compilation failed"

# One relocatable object in which only hyperleveldb_* stays global. Its
# COMDAT groups are dropped too: their members are now private, and a
# group could otherwise be discarded at the final link in favour of a
# same-named one from another C++ object, leaving our references dangling.
ld -r -o "$work/linked.o" "$work"/obj/*.o
nm --defined-only --extern-only "$work/linked.o" | awk '$3 ~ /^hyperleveldb_/ { print $3 }' >"$work/keep.txt"
objcopy --keep-global-symbols="$work/keep.txt" --remove-section=.group "$work/linked.o" "$work/hyperleveldb.o"
leaked=$(nm --defined-only --extern-only "$work/hyperleveldb.o" | awk '$3 !~ /^hyperleveldb_/')
[[ -z $leaked ]] || die "symbols other than hyperleveldb_* are still global: $leaked"

rm -rf "$out"
mkdir -p "$out"
ar rcsD "$out/libhyperleveldb.a" "$work/hyperleveldb.o"
cp -r "$work/include" "$out/"
echo "$stamp" >"$out/stamp"
echo "build-hyperleveldb: done ($(wc -l <"$work/keep.txt") C API symbols)"
