#!/bin/sh
# progress.sh: a single run that takes more than about a second of wall
# time shows fio's status line on stderr when stderr is a terminal, and
# nothing otherwise; either way stdout is the same.  So does a comparison,
# its line counting all its columns.  The terminal is made
# with script(1) (util-linux/bsdutils); without it that half is skipped.
#
# Usage: sh tests/progress.sh MPSIM
set -eu
mpsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# about 18 M simulated I/Os: two to four seconds of wall time
args="--selector=st --runtime=300s --format=csv"
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
	# of 600 s simulated: about two seconds of wall time each on two idle
	# cores; the line shows only after a second of wall time)
	cargs="compare --runtime=600s --columns=st,rr"
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
	if ! cmp -s "$tmp/cout" "$tmp/ctty.out"; then
		echo "FAIL progress: compare's table differs on a terminal" >&2
		fail=1
	fi
else
	echo "progress.sh: no script(1), the terminal case is skipped" >&2
fi
[ "$fail" = 0 ] || exit 1
echo "progress.sh: passed"
