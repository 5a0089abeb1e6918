#!/bin/sh
# progress.sh: a single run that takes more than two eta intervals of
# wall time (--eta-interval, fio's option) shows fio's status line on
# stderr when stderr is a terminal, and nothing otherwise; either way
# stdout is the same (a table's cells padded on a terminal).  So does a
# comparison, its line counting all its columns.  The terminal is made with script(1) (util-linux/bsdutils);
# without it that half is skipped.
#
# The runs take an interval of 20 ms, not the default half second, so
# that a run of a few tenths of a second shows the line: the same code
# path as a long run's, at a twentieth of the CPU time.
#
# Usage: sh tests/progress.sh MPSIM
set -eu
mpsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# about 1.8 M simulated I/Os: 0.2 to 0.4 s of wall time on two idle
# cores, five times the 40 ms after which the line shows
args="--selector=st --runtime=30s --format=csv --eta-interval=20ms"
fail=0

"$mpsim" $args >"$tmp/out" 2>"$tmp/err"
if [ -s "$tmp/err" ]; then
	echo "FAIL progress: stderr is not a terminal, yet mpsim wrote:" >&2
	head -c 300 "$tmp/err" >&2
	fail=1
fi

if command -v script >/dev/null 2>&1; then
	# stdout and stderr both reach the terminal: the status line, then
	# the erased line, then the CSV with the terminal's CR LF
	script -qec "$mpsim $args" /dev/null >"$tmp/tty" </dev/null
	if ! grep -q 'mpsim: \[[0-9.]*%\]\[sim [0-9.]* s\]\[[0-9.]*k IOPS\]\[eta [0-9][0-9]m:[0-9][0-9]s\]' "$tmp/tty"; then
		echo "FAIL progress: no status line on a terminal:" >&2
		head -c 300 "$tmp/tty" >&2
		fail=1
	fi
	tr -d '\r' <"$tmp/tty" | sed 's/^.*# mpsim/# mpsim/' | sed -n '/^# mpsim/,$p' >"$tmp/tty.out"
	if ! cmp -s "$tmp/out" "$tmp/tty.out"; then
		echo "FAIL progress: the output differs on a terminal" >&2
		fail=1
	fi

	# compare: one line for the whole comparison, naming the column it
	# is in; the table is the same as without a terminal (two columns
	# of 30 s simulated: 0.2 to 0.4 s of wall time each on two idle
	# cores; the line shows after two intervals of the whole command)
	cargs="compare --runtime=30s --columns=st,rr --eta-interval=20ms"
	"$mpsim" $cargs >"$tmp/cout" 2>"$tmp/cerr"
	if [ -s "$tmp/cerr" ]; then
		echo "FAIL progress: compare wrote on a stderr that is no terminal:" >&2
		head -c 300 "$tmp/cerr" >&2
		fail=1
	fi
	script -qec "$mpsim $cargs" /dev/null >"$tmp/ctty" </dev/null
	if ! grep -q 'mpsim: \[[12]/2 \(ST\|RR\)\]\[[0-9.]*%\]\[sim [0-9.]* s\]\[[0-9.]*k IOPS\]\[eta [0-9][0-9]m:[0-9][0-9]s\]' "$tmp/ctty"; then
		echo "FAIL progress: compare shows no status line on a terminal:" >&2
		head -c 300 "$tmp/ctty" >&2
		fail=1
	fi
	tr -d '\r' <"$tmp/ctty" | sed 's/^.*mpsim 0/mpsim 0/' | sed -n '/^mpsim [0-9]/,$p' >"$tmp/ctty.out"
	# on a terminal the table's cells are padded so that its columns
	# line up: the same cells, padding aside
	unpad() {
		awk -F'|' '!/^\|/ { print; next } { s = ""; for (i = 1; i <= NF; i++) { c = $i;
			gsub(/^ +| +$/, "", c); if (c ~ /^:?-+:?$/) gsub(/-+/, "-", c); s = s "|" c } print s }' "$1"
	}
	if [ "$(unpad "$tmp/cout")" != "$(unpad "$tmp/ctty.out")" ]; then
		echo "FAIL progress: compare's table differs on a terminal" >&2
		fail=1
	fi
else
	echo "progress.sh: no script(1), the terminal case is skipped" >&2
fi
[ "$fail" = 0 ] || exit 1
echo "progress.sh: passed"
