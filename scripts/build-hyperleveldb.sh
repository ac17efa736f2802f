#!/usr/bin/env bash
# Builds HyperLevelDB 1.0.2 as a release library and installs it under
# PREFIX (default /usr/local) for the engine/hyperleveldb cgo binding:
#
#   PREFIX/lib/libhyperleveldb.so.1.0.2 (and the .so.1, .so links)
#   PREFIX/include/hyperleveldb/c.h     its C API, renamed (see below)
#   PREFIX/lib/pkgconfig/hyperleveldb.pc
#
# HyperLevelDB is a LevelDB fork with the same C symbols (leveldb_*) and
# C++ namespace (leveldb::), so loaded naively beside LevelDB one would
# silently run the other's code. Here the namespace is renamed with
# -Dleveldb=hyperleveldb, every C API name gets a hyper prefix through a
# force-included header, and a linker version script exports only the
# renamed C API: every C++ symbol stays inside the library. Its soname,
# libhyperleveldb.so.1, differs from the unrenamed upstream build's
# libhyperleveldb.so.0, which has another ABI.
#
# It is compiled with -O2 -DNDEBUG, and with -frecord-gcc-switches so that
# the flags can be read back from the installed library. ASSERTIONS=1
# leaves out -DNDEBUG, for repro/hyperleveldb/run.sh --assert, which
# installs that build under build/ (PREFIX), never over the release one.
#
# The source ships only inside the npm package leveldown-hyper@2.0.0; its
# checksum is pinned below. One file of ours is compiled in beside it,
# scripts/hyperleveldb-compact.cc (see there why). Re-running is instant:
# a stamp keyed by the checksum and both scripts skips an up-to-date
# install.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly VERSION=1.0.2
readonly SOVERSION=1
readonly PACKAGE=leveldown-hyper@2.0.0
readonly TARBALL=leveldown-hyper-2.0.0.tgz
readonly SHA256=a68babb9f256d0651fcbcfe3ef8e45ee3f7a7fb3e4bcbe865e4566f0ac14e035
readonly SRC=package/deps/leveldb/leveldb-hyper-$VERSION
readonly CONF=package/deps/leveldb/leveldb-hyper-conf/linux
readonly LIBRARY=libhyperleveldb.so.$VERSION

extra="$root/scripts/hyperleveldb-compact.cc"
need sha256sum "install coreutils"
need flock "install util-linux"
lock hyperleveldb

ndebug=-DNDEBUG kind="a release build (-O2 -DNDEBUG)" variant=
if [[ ${ASSERTIONS:-} == 1 ]]; then
	ndebug= kind="with assertions (-O2)" variant=-assert
fi
stampfile="$stamps/hyperleveldb$variant.stamp"
stamp="$PREFIX $SHA256 $(cat "$0" "$extra" | sha256sum | cut -d' ' -f1)"
if up_to_date "$stampfile" "$stamp" && [[ -f $PREFIX/lib/$LIBRARY && -f $PREFIX/include/hyperleveldb/c.h &&
	-f $PREFIX/lib/pkgconfig/hyperleveldb.pc ]]; then
	exit 0
fi

need g++ "install g++ (apt-get install g++)"
need nm "install binutils (apt-get install binutils)"
[[ -f /usr/include/snappy.h ]] || die "snappy.h not found; install libsnappy-dev (apt-get install libsnappy-dev)"

if [[ ! -f $download/$TARBALL ]]; then
	need npm "install npm (apt-get install npm), or copy $TARBALL into $download"
	echo "build-hyperleveldb: fetching $PACKAGE"
	(cd "$download" && npm pack --silent --ignore-scripts "$PACKAGE" >/dev/null) ||
		die "npm pack $PACKAGE failed; check network access, or copy $TARBALL into $download"
fi
check_sha256 "$download/$TARBALL" "$SHA256"

echo "build-hyperleveldb: compiling HyperLevelDB $VERSION (under a minute)"
work=$(mktemp -d "$root/build/hyperleveldb-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$download/$TARBALL" -C "$work"
cd "$work"
src="$work/$SRC"

# Every leveldb_* name of the C API (functions, types, enum constants)
# becomes hyperleveldb_*: as macros while compiling the library, and
# spelled out in the header the binding includes, whose include guard
# also changes so it can sit beside LevelDB's own c.h.
grep -o '\bleveldb_[A-Za-z0-9_]*' "$src/hyperleveldb/c.h" | sort -u |
	sed 's/.*/#define & hyper&/' >rename.h
sed -e 's/\bleveldb_/hyperleveldb_/g' -e 's/STORAGE_LEVELDB_INCLUDE_C_H_/HYPERLEVELDB_C_H_/' \
	"$src/hyperleveldb/c.h" >c.h

# The library's sources are the ones its own Makefile.am lists, plus ours;
# each basename is unique, so the objects land side by side in obj/.
mapfile -t sources < <(sed -n "s|^libhyperleveldb_la_SOURCES += |$src/|p" "$src/Makefile.am")
((${#sources[@]} > 0)) || die "no sources found in $src/Makefile.am"
sources+=("$extra")
cxxflags=(
	-O2 $ndebug -frecord-gcc-switches -fPIC -pthread -std=gnu++11 -w
	-DOS_LINUX -DLEVELDB_PLATFORM_POSIX -DHAVE_CONFIG_H=1 -DSNAPPY
	-Dleveldb=hyperleveldb -include "$work/rename.h"
	-I"$work/$CONF" -I"$src"
)
mkdir obj
(cd obj && printf '%s\n' "${sources[@]}" | xargs -P 2 -n 1 g++ "${cxxflags[@]}" -c) ||
	die "compilation failed"

# Only hyperleveldb_* is exported; the linker binds every other reference
# inside the library. Snappy is linked in statically, so that a program
# that also loads RocksDB's release library (which exports a Snappy of its
# own) cannot bind HyperLevelDB's compression to RocksDB's copy.
printf '{\n  global: hyperleveldb_*;\n  local: *;\n};\n' >exports.map
g++ -shared -o "$LIBRARY" -Wl,-soname,"libhyperleveldb.so.$SOVERSION" \
	-Wl,--version-script=exports.map -Wl,--no-undefined -Wl,--as-needed \
	obj/*.o -Wl,--push-state,-Bstatic -lsnappy -Wl,--pop-state -pthread || die "linking failed"
leaked=$(nm -D --defined-only "$LIBRARY" | awk '$3 !~ /^hyperleveldb_/ { print $3 }')
[[ -z $leaked ]] || die "symbols other than hyperleveldb_* are exported: $leaked"

echo "build-hyperleveldb: installing HyperLevelDB $VERSION into $PREFIX"
install_library "$LIBRARY" hyperleveldb "$VERSION" "$SOVERSION"
as_root install -D -m 0644 c.h "$PREFIX/include/hyperleveldb/c.h"
write_pc hyperleveldb "$VERSION" "HyperLevelDB with its C API renamed to hyperleveldb_*, $kind" "-lhyperleveldb"
refresh_linker build-hyperleveldb
record "$stampfile" "$stamp"
echo "build-hyperleveldb: done ($(nm -D --defined-only "$LIBRARY" | wc -l) C API symbols)"
