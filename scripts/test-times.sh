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
# children it waited for, "XmY.YYYs XmY.YYYs", user then system. It
# also records when the binary started and ended, in seconds from the
# start of make test (TEST_TIMES_ZERO): which ran beside which.
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
	-v z="$TEST_TIMES_ZERO" '{printf "%s %.1f %.1f %.0f %.0f\n", n, e - s, $1 * 60 + $2 + $3 * 60 + $4, s - z, e - z}' >>"$TEST_TIMES_LOG"
rm -f "$TEST_TIMES_LOG.$$"
exit $rc
WRAPPER
chmod +x "$work/exec.sh"
export TEST_TIMES_LOG="$work/tests.log"
: >"$TEST_TIMES_LOG"

git clone -q "$repo" "$work/clone"
git -C "$work/clone" checkout -q "$rev"
cd "$work/clone"

# cpu sets CPU to the CPU seconds of this shell's waited-for children so
# far: times in this shell, as in the wrapper.
cpu() {
	times >"$work/times"
	CPU=$(tail -1 "$work/times" | tr 'ms' '  ' | awk '{printf "%.1f", $1 * 60 + $2 + $3 * 60 + $4}')
}

# part NAME COMMAND...: runs one part, its output in NAME.log, and
# records its wall time, its CPU time (every process it waited for:
# compiles, vet, the JVM worker's tests, the test binaries) and status.
part() {
	local name=$1 start end cpu0 rc=0
	shift
	cpu
	cpu0=$CPU
	start=$EPOCHREALTIME
	export TEST_TIMES_ZERO=$start
	"$@" >"$work/$name.log" 2>&1 || rc=$?
	end=$EPOCHREALTIME
	cpu
	awk -v n="$name" -v s="$start" -v e="$end" -v c0="$cpu0" -v c1="$CPU" -v rc="$rc" \
		'BEGIN {printf "  %-28s %8.1f %8.1f  exit %d\n", n, e - s, c1 - c0, rc}' >>"$work/parts.log"
	return "$rc"
}
failed=""
part setup scripts/setup.sh || failed=setup
# GOFLAGS hands go test its -exec; go build and go vet ignore it.
[ -n "$failed" ] || part make-test env GOFLAGS="-exec=$work/exec.sh" make test || failed=make-test

echo "commit $rev, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "part: wall seconds, CPU seconds, exit status"
cat "$work/parts.log"
echo "test binary: wall seconds, CPU seconds (user and system), from and to (seconds into make test)"
sort -k3,3 -g -r "$TEST_TIMES_LOG" | awk '{printf "  %-28s %8s %8s %6s %6s\n", $1, $2, $3, $4, $5}'
if [ -n "$failed" ]; then
	# The failures themselves, which go test prints long before its
	# last lines, then the end of the output.
	echo "$failed failed; its failures:" >&2
	grep -E -A25 -- '^(--- FAIL|FAIL|panic:)' "$work/$failed.log" | head -150 >&2
	echo "the end of its output:" >&2
	tail -40 "$work/$failed.log" >&2
	exit 1
fi
