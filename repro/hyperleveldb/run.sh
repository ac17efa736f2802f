#!/usr/bin/env bash
# Runs overlap.c, the reproduction of HyperLevelDB 1.0.2 losing and
# resurrecting keys when a manual compaction meets its optimistic
# compaction thread (results/hyperleveldb-race/README.md).
#
#   repro/hyperleveldb/run.sh [--assert] [POINTS SERIES [MODE]]
#
# It compiles overlap.c against the release library that scripts/setup.sh
# installs, or with --assert against a build of the same pinned source
# with its assertions left in (compiled once into build/hyperleveldb-assert),
# where LevelDB's own check of the level invariant aborts the program at
# the moment the overlapping tables are installed. The store goes in a
# temporary directory under TMPDIR (/tmp), removed afterwards. Defaults:
# 60000000 points over 300000 series, MODE compact (see overlap.c). The
# race depends on timing: a size that fails once may pass the next time.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/build/hyperleveldb-repro"
mkdir -p "$out"

lib=()
if [[ ${1:-} == --assert ]]; then
	shift
	PREFIX="$root/build/hyperleveldb-assert" ASSERTIONS=1 "$root/scripts/build-hyperleveldb.sh"
	export PKG_CONFIG_PATH="$root/build/hyperleveldb-assert/lib/pkgconfig"
	lib=(env LD_LIBRARY_PATH="$root/build/hyperleveldb-assert/lib")
fi
# shellcheck disable=SC2046 # pkg-config prints several flags.
cc -O2 -Wall -o "$out/overlap" "$root/repro/hyperleveldb/overlap.c" $(pkg-config --cflags --libs hyperleveldb)

dir=$(mktemp -d "${TMPDIR:-/tmp}/hyperleveldb-overlap.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"${lib[@]}" "$out/overlap" "$dir/db" "${1:-60000000}" "${2:-300000}" "${3:-compact}"
