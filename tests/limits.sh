#!/bin/sh
# limits.sh: hostile input and the runs that cannot finish (README "Limits
# and bad input").  Each case must end within a minute with the exit
# status it names, exactly one line on stderr, and nothing on stdout.
# The plain refusals (status 2) are in golden/bad-input.txt; these are the
# cases that need more than a command line: other statuses, special files,
# stdout that cannot be written.
#
# usage: limits.sh MPSIM
set -eu
LC_ALL=C
export LC_ALL
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# expect STATUS ARGS...: run mpsim from tests/golden with stdout to a file
expect() {
	want=$1
	shift
	st=0
	(cd "$dir/golden" && timeout 60 "$mpsim" "$@") \
	    >"$tmp/out" 2>"$tmp/err" </dev/null || st=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$st" -ne "$want" ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ]; then
		echo "limits: mpsim $*: want status $want, one stderr line, no stdout"
		echo "  status $st, stdout $(wc -c <"$tmp/out") bytes, stderr $lines lines:"
		sed 's/^/  | /' "$tmp/err" | head -5
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

# A run whose clock would pass its limit (2^62 ns): 200 thinktimes of
# 1e8 s each.  Without the limit the clock wraps past 2^64 ns.
expect 1 --iodepth=1 --runtime=0 --number_ios=200 --thinktime=100000000s
expect 1 compare --iodepth=1 --runtime=0 --number_ios=200 --thinktime=100000000s

echo "limits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
