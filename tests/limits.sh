#!/bin/sh
# limits.sh: hostile input and the runs that cannot finish (docs/usage.md "Limits
# and bad input").  Each case must end within a minute with the exit
# status it names, exactly one line on stderr, and nothing on stdout.
# The plain refusals (status 2) are in golden/bad-input.txt; these are the
# cases that need more than a command line: other statuses, special files,
# stdout that cannot be written.
#
# usage: limits.sh MPSIM
set -eu
suite=limits
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(cd "$(dirname "$0")" && pwd)

# expect_prefix STATUS PREFIX ARGS...: run mpsim from tests/golden, with
# stdout to a file; its one stderr line must start with PREFIX
expect_prefix() {
	want=$1
	prefix=$2
	shift 2
	st=0
	(cd "$dir/golden" && timeout 60 "$mpsim" "$@") \
	    >"$tmp/out" 2>"$tmp/err" </dev/null || st=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$st" -ne "$want" ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ] ||
	    [ "$(head -c ${#prefix} "$tmp/err")" != "$prefix" ]; then
		bad "mpsim $*: want status $want, no stdout, one stderr line '$prefix...'"
		echo "  status $st, stdout $(wc -c <"$tmp/out") bytes, stderr $lines lines:"
		sed 's/^/  | /' "$tmp/err" | head -5
	else
		ok
	fi
}

# expect STATUS ARGS...: the same, the line starting with 'mpsim: '
expect() {
	want=$1
	shift
	expect_prefix "$want" "mpsim: " "$@"
}

# A run whose clock would pass its limit (2^62 ns): 200 thinktimes of
# 1e8 s each.  Without the limit the clock wraps past 2^64 ns.
expect 1 --iodepth=1 --runtime=0 --number_ios=200 --thinktime=100000000s
expect 1 compare --iodepth=1 --runtime=0 --number_ios=200 --thinktime=100000000s
# dm-delay's table takes up to 2^32-1 ms; from 2^31 ms msecs_to_jiffies()
# gives MAX_JIFFY_OFFSET, forever: the run waits for its bios past the
# clock's limit (the timer's instant saturated at 2^64 ns before, and the
# clock wrapped after it).
expect 1 --delay=2147483648 --runtime=0 --number_ios=10

# a too long --interval says so as every time option does
expect_prefix 2 "mpsim: --interval: '100000001s' is longer than 100000000s, the limit of a time value" \
    --interval=100000001s
# sweep and compare run many: a trace or a series is refused with why
for o in --trace=x.json --trace-from=1ms --blktrace=bt; do
	expect_prefix 2 "mpsim: sweep: ${o%%=*}: a trace follows one run" \
	    sweep "$o" --iodepth=1,2
	expect_prefix 2 "mpsim: compare: ${o%%=*}: a trace follows one run" \
	    compare "$o"
done
for o in --interval=1s --series=s.csv; do
	expect_prefix 2 "mpsim: sweep: ${o%%=*}: a series follows one run" \
	    sweep "$o" --iodepth=1,2
done

# control characters in a file name or a value are escaped one way,
# \n, \t, \xHH, whichever message echoes them
expect_prefix 2 'mpsim: ./no\tfile: No such file' --scenario="$(printf './no\tfile')"
# a line break in a value would split the CSV's "# mpsim ..." line: every
# command refuses it, as sweep does
for c in run compare sweep; do
	expect_prefix 2 'mpsim: --scenario: a value may not hold a line break' \
	    $c --scenario="$(printf './no\nfile')" --format=csv
done
expect_prefix 2 'mpsim: --name: a value may not hold a line break' \
    --name="$(printf 'a\rb')" --format=csv
expect_prefix 2 "mpsim: --bs: unknown size unit in '4k\\x1b[31m'" \
    --bs="$(printf '4k\033[31m')"
expect_prefix 2 'mpsim: --seed: '"'"'1\t2'"'" --seed="$(printf '1\t2')"

# merge says what it could not read as every message of merge does
expect_prefix 2 "mpsim: merge: no-such-file: No such file" \
    merge --output="$tmp/merged.csv" no-such-file

# Files that are no regular files: a FIFO without a writer (opening it
# for reading blocked), a device that never ends, a directory (ftell gave
# LLONG_MAX for it and the log reader tried to allocate 8 EiB).
mkfifo "$tmp/fifo"
expect 2 --scenario="$tmp/fifo"
expect 2 --job="$tmp/fifo"
expect 2 --read_iolog="$tmp/fifo"
expect 2 --read_iolog="$tmp"
expect 2 --selector-source="$tmp/fifo"
expect_prefix 2 "mpsim: merge: /dev/zero: a device" \
    merge --output="$tmp/merged.csv" /dev/zero
expect_prefix 2 "mpsim: merge: $tmp: a directory" \
    merge --output="$tmp/merged.csv" "$tmp"
# outputs: the sorted file is renamed over its path at the end
expect_prefix 2 "mpsim: merge: $tmp: a directory" merge --output="$tmp" x.csv
expect_prefix 2 "mpsim: $tmp: a directory" \
    sweep --iodepth=1,2 --runtime=1ms --output="$tmp"
expect_prefix 2 "mpsim: $tmp/fifo: a FIFO" \
    sweep --iodepth=1,2 --runtime=1ms --output="$tmp/fifo"

# Files larger than a reader's limit are refused before they are read
# (sparse files: no disk is used).
truncate -s 1025M "$tmp/big.csv"
expect_prefix 2 "mpsim: merge: $tmp/big.csv: larger than 1024 MiB, the limit" \
    merge --output="$tmp/merged.csv" "$tmp/big.csv"
expect_prefix 2 "mpsim: $tmp/big.csv: larger than 1024 MiB, the limit" \
    sweep --iodepth=1,2 --runtime=1ms --output="$tmp/big.csv"
truncate -s 65M "$tmp/big.log"
expect 2 --read_iolog="$tmp/big.log"
truncate -s 1025K "$tmp/big.ini"
expect_prefix 2 "mpsim: $tmp/big.ini: larger than 1 MiB, the limit" \
    --scenario="$tmp/big.ini"
rm -f "$tmp/big.csv" "$tmp/big.log" "$tmp/big.ini"

# Result files whose heads hold an escaped line break in a scenario's
# name: merge echoes both names, escaped, on one line.
printf '{"mpsim": {"version": "0.1.0", "sweep": "--scenario=a\\u000ab --iodepth=1,2"}}\n' \
    >"$tmp/head1.json"
printf '{"mpsim": {"version": "0.1.0", "sweep": "--scenario=c --iodepth=1,2"}}\n' \
    >"$tmp/head2.json"
expect_prefix 2 "mpsim: merge: $tmp/head1.json and $tmp/head2.json are from different scenarios (a\\nb, c)" \
    merge --output="$tmp/merged.json" "$tmp/head1.json" "$tmp/head2.json"

# A series is bounded by its rows, intervals x (paths + 1): 10^5
# intervals of 256 paths would hold 2.6e7 rows (2 GB), refused with the
# limit named; the default 10 paths take as many intervals as before.
{
	printf '[multipath]\nselector = rr\n'
	i=0
	while [ $i -lt 256 ]; do
		printf '[path p%d]\nservice = exp:100us\n' $i
		i=$((i + 1))
	done
} >"$tmp/256.ini"
expect_prefix 2 "mpsim: $tmp/256.ini: --interval: 10000 ns cuts the run into 100000 intervals of 257 rows (256 paths and the total), 2.57e+07 rows in all, past the limit of 10000000 rows" \
    --scenario="$tmp/256.ini" --runtime=1s --interval=10us --series="$tmp/s.csv"
[ ! -e "$tmp/s.csv" ] && ok || bad "a refused series left a file"
expect_prefix 2 "mpsim: hst-bio-mpath: --interval: 1000 ns cuts the run into 1000000 intervals of 11 rows" \
    --runtime=1s --interval=1us --series="$tmp/s.csv"

# Another sweep writing the file is a run-time condition (status 1), not
# bad input: the same command works once that sweep is over.
(cd "$dir/golden" && exec "$mpsim" sweep --iodepth=1,2 --runtime=10000s -j 1 \
    --output="$tmp/locked.csv" 2>/dev/null) &
holder=$!
n=0
while [ ! -s "$tmp/locked.csv" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
expect_prefix 1 "mpsim: $tmp/locked.csv: another mpsim is writing it" \
    sweep --iodepth=1,2 --runtime=10000s -j 1 --output="$tmp/locked.csv"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true

# Points that fail at run time (their clock would pass its limit) in
# several workers: one line in all, status 1.
expect_prefix 1 "mpsim: sweep point " sweep --iodepth=1 --runtime=0 \
    --number_ios=200 --thinktime=100000000s,99999999s,99999998s -j 3

# A run that would take long says so first, whether stderr is a terminal
# or not: --runtime=100000000s is some 6e12 I/Os, days of wall time.
"$mpsim" --runtime=100000000s --format=csv >/dev/null 2>"$tmp/long.err" &
long=$!
n=0
while [ ! -s "$tmp/long.err" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
kill "$long" 2>/dev/null || true
wait "$long" 2>/dev/null || true
if [ "$(wc -l <"$tmp/long.err")" -eq 1 ] &&
    grep -q '^mpsim: warning: this run simulates about 6e+12 I/Os, about [0-9]* days at 5 M I/Os a second' "$tmp/long.err"; then
	ok
else
	bad "--runtime=100000000s did not say how long it takes:"
	sed 's/^/  | /' "$tmp/long.err" | head -3
fi
# ... and a short one says nothing
expect_quiet() {
	if "$mpsim" "$@" >/dev/null 2>"$tmp/short.err" && [ ! -s "$tmp/short.err" ]; then
		ok
	else
		bad "mpsim $*: stderr not empty:"
		sed 's/^/  | /' "$tmp/short.err" | head -3
	fi
}
expect_quiet --runtime=1s
expect_quiet --iodepth=1048576 --runtime=1s

# A trace that cannot be written says why (a file size limit here: a
# full disk says "No space left on device" the same way), status 1.
(
	trap '' XFSZ
	ulimit -f 64
	expect_prefix 1 "mpsim: hst-bio-mpath: --trace: writing '$tmp/t.json' failed: File too large" \
	    --runtime=100ms --trace="$tmp/t.json"
	expect_prefix 1 "mpsim: hst-bio-mpath: --blktrace: writing '$tmp/bt/sdd.blktrace.0' failed: File too large" \
	    --runtime=1s --blktrace="$tmp/bt"
	echo "$pass $fail" >"$tmp/counts"
)
read -r pass fail <"$tmp/counts"

# Writes that fail: with stdout on /dev/full every command must exit 1
# with one line on stderr ('mpsim: ...'); list, --help and --version
# exited 0.
expect_full() {
	st=0
	(cd "$dir/golden" && timeout 60 "$mpsim" "$@") \
	    >/dev/full 2>"$tmp/err" </dev/null || st=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$st" -ne 1 ] || [ "$lines" -ne 1 ] ||
	    [ "$(head -c 7 "$tmp/err")" != "mpsim: " ]; then
		bad "mpsim $* >/dev/full: want status 1, one stderr line"
		echo "  status $st, stderr $lines lines:"
		sed 's/^/  | /' "$tmp/err" | head -5
	else
		ok
	fi
}
if [ -c /dev/full ]; then
	expect_full list selectors
	expect_full list scenarios
	expect_full --help
	expect_full help
	expect_full --version
	expect_full sweep --help
	expect_full merge --help
	expect_full timers --help
	expect_full --runtime=10ms
	expect_full compare --runtime=10ms
	expect_full sweep --iodepth=1,2 --runtime=1ms
	expect_full sweep --iodepth=1,2 --runtime=1ms --list-runs
	expect_full timers --runtime=1s
else
	bad "/dev/full is not a device here; the write checks cannot run"
fi

finish
