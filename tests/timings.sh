#!/bin/bash
# timings.sh: how long make test and make check take here, and what they
# run, measured (make timings).  Each target runs once; its wall time, the
# CPU time of everything it ran (user + system) and the load average
# before it are printed as a Markdown table, with the counts its suites
# report (Criterion tests, golden cases, contract cases, ...), taken from
# their logs in $BUILD/suites/.  With --write FILE (more than once for
# more files), the table replaces the lines between
# "<!-- timings:begin -->" and "<!-- timings:end -->" of FILE (README.md,
# docs/testing.md), so the figures the docs quote are measured, not typed.  Timing is never a pass/fail criterion: a target that fails
# is reported as failed, and FILE is left alone.
#
# usage: bash tests/timings.sh [--write FILE]... TARGET...   (test, check)
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
files=()
targets=()
while [ $# -gt 0 ]; do
	case $1 in
	--write) files+=("${2:?--write needs a file}"); shift ;;
	test|check) targets+=("$1") ;;
	*) echo "usage: timings.sh [--write FILE] test|check..." >&2; exit 2 ;;
	esac
	shift
done
[ ${#targets[@]} -gt 0 ] || targets=(test)
for file in "${files[@]}"; do
	if ! grep -q '^<!-- timings:begin -->$' "$file"; then
		echo "timings: $file has no <!-- timings:begin --> line" >&2
		exit 2
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# minsec SECONDS: "1 min 25 s", "48 s"
minsec() {
	local s=${1%.*}
	if [ "$s" -ge 60 ]; then echo "$((s / 60)) min $((s % 60)) s"; else echo "$s s"; fi
}
# count LEVEL SUITE AWK: a number from a suite's log
count() {
	local f=$BUILD/suites/$1/$2.log
	[ -f "$f" ] && awk "$3" "$f" || true
}

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
rows=
status=0
for t in "${targets[@]}"; do
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
	echo "timings: make $t (load average $load) ..." >&2
	TIMEFORMAT='%R %U %S'
	rc=0
	{ time make "$t" >"$tmp/$t.log" 2>&1 || rc=$?; } 2>"$tmp/$t.time"
	read -r wall user sys <"$tmp/$t.time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')
	if [ "$rc" -ne 0 ]; then
		echo "timings: make $t FAILED (exit $rc); the end of its output:" >&2
		tail -20 "$tmp/$t.log" >&2
		status=1
	fi
	what=
	case $t in
	test)
		crit=$(cat "$BUILD"/suites/test/unit-*.log 2>/dev/null |
		    sed -n 's/.*Synthesis: Tested: \([0-9]*\).*/\1/p' |
		    awk '{ s += $1 } END { print s + 0 }')
		golden=$(count test golden '/^golden: / { print $2 }')
		nsuites=$(grep -c '^test ' tests/suites)
		what="$nsuites suites, two at a time: $crit Criterion tests, $golden golden and bad-input cases, the shell suites, the fuzz corpus" ;;
	check)
		contract=$(count check contract '/^contract: [0-9]* cases/ { print $2 }')
		what="the contract test ($contract cases), the option walk alone, every figure as PNG, kernel-check, slurm-check, asan, mutate-selectors" ;;
	esac
	rows="$rows| \`make $t\` | $what | $(minsec "$wall") | $cpu s | $cores cores, load average $load before |"$'\n'
	[ "$rc" -eq 0 ] || rows="$rows| | (failed: exit $rc) | | | |"$'\n'
done

{
	echo "| command | what it runs | wall time | CPU time | measured on |"
	echo "|---|---|--:|--:|---|"
	printf '%s' "$rows"
} >"$tmp/table"
cat "$tmp/table"
[ "$status" -eq 0 ] || files=()
for file in "${files[@]}"; do
	awk -v table="$tmp/table" '
		/^<!-- timings:end -->$/ { skip = 0 }
		!skip { print }
		/^<!-- timings:begin -->$/ { while ((getline l < table) > 0) print l; skip = 1 }' \
	    "$file" >"$tmp/new"
	cat "$tmp/new" >"$file"
	echo "timings: $file updated" >&2
done
exit "$status"
