#!/usr/bin/env bash
# Times `make test` in parts, to find where its minutes go: in a fresh
# clone of REV (default HEAD), the set-up, then make test with every Go
# test binary run through a wrapper that records its wall time and its
# CPU time, the processes it waited for included (nodes, members, engine
# processes). Prints one line per part, the costliest test binaries in
# CPU first, and exits with the status of the part that failed.
#
#   scripts/test-times.sh [REV]
#
# The figures are times: run it with nothing else running.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$repo" rev-parse "${1:-HEAD}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The wrapper. The last line of bash's times is the CPU time of the
# children it waited for, "XmY.YYYs XmY.YYYs", user then system.
cat >"$work/exec.sh" <<'WRAPPER'
#!/usr/bin/env bash
start=$EPOCHREALTIME
"$@"
rc=$?
end=$EPOCHREALTIME
# times in this shell, not in a pipeline's subshell, whose children
# are not these.
times >"$TEST_TIMES_LOG.$$"
tail -1 "$TEST_TIMES_LOG.$$" | tr 'ms' '  ' | awk -v n="$(basename "$1" .test)" -v s="$start" -v e="$end" \
	'{printf "%s %.1f %.1f\n", n, e - s, $1 * 60 + $2 + $3 * 60 + $4}' >>"$TEST_TIMES_LOG"
rm -f "$TEST_TIMES_LOG.$$"
exit $rc
WRAPPER
chmod +x "$work/exec.sh"
export TEST_TIMES_LOG="$work/tests.log"
: >"$TEST_TIMES_LOG"

git clone -q "$repo" "$work/clone"
git -C "$work/clone" checkout -q "$rev"
cd "$work/clone"

# part NAME COMMAND...: runs one part, its output in NAME.log, and
# records its wall time and status.
part() {
	local name=$1 start end rc=0
	shift
	start=$EPOCHREALTIME
	"$@" >"$work/$name.log" 2>&1 || rc=$?
	end=$EPOCHREALTIME
	awk -v n="$name" -v s="$start" -v e="$end" -v rc="$rc" \
		'BEGIN {printf "  %-28s %8.1f  exit %d\n", n, e - s, rc}' >>"$work/parts.log"
	return "$rc"
}
failed=""
part setup scripts/setup.sh || failed=setup
# GOFLAGS hands go test its -exec; go build and go vet ignore it.
[ -n "$failed" ] || part make-test env GOFLAGS="-exec=$work/exec.sh" make test || failed=make-test

echo "commit $rev, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "part: wall seconds, exit status"
cat "$work/parts.log"
echo "test binary: wall seconds, CPU seconds (user and system)"
sort -k3,3 -g -r "$TEST_TIMES_LOG" | awk '{printf "  %-28s %8s %8s\n", $1, $2, $3}'
if [ -n "$failed" ]; then
	# The failures themselves, which go test prints long before its
	# last lines, then the end of the output.
	echo "$failed failed; its failures:" >&2
	grep -E -A25 -- '^(--- FAIL|FAIL|panic:)' "$work/$failed.log" | head -150 >&2
	echo "the end of its output:" >&2
	tail -40 "$work/$failed.log" >&2
	exit 1
fi
