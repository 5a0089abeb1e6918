#!/bin/sh
# contract.sh: the command-line contract under hostile values.  Every
# option of every command (taken from the program: the commands from
# `mpsim --help`, run options from `mpsim list options --format=walk`, each command's
# own from its --help) gets every value of the catalogue below (empty,
# bare, huge, negative, NaN, inf, Unicode, line breaks, very long, times
# and distributions beyond the clock, files that are directories, FIFOs,
# unreadable, missing, /dev/zero, ...); then a few stdout targets that
# fail (/dev/full).  Each invocation must:
#   - end within TIMEOUT seconds (a hang is a failure), with no signal,
#   - exit 0, 1 or 2, with no sanitizer report on stderr,
#   - exit 2 or 1: exactly one stderr line, starting "mpsim:", and for 2
#     nothing on stdout;
#   - exit 0: only "mpsim:" lines (warnings) on stderr.
# An argument cannot hold a NUL byte; files holding NUL bytes are among
# the file values.  Run as root, a mode-000 file is readable (root
# ignores permissions): that case then reads a file like any other, and
# the test says so instead of claiming it was checked.
#
# usage: contract.sh MPSIM [STRIDE]   (STRIDE N: every Nth case only)
set -eu
LC_ALL=C
export LC_ALL
TIMEOUT=10
# published has no option that makes its work small: --sensitivity is a
# few seconds of runs (a minute under the sanitizers)
SLOW_TIMEOUT=180
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
stride=${2:-1}
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# ---- the files the values name ----
mkdir "$tmp/dir" "$tmp/cwd" "$tmp/out"
mkfifo "$tmp/fifo"
printf '[multipath]\n' > "$tmp/unreadable"
chmod 000 "$tmp/unreadable"
: > "$tmp/empty"
printf 'fio version 2 iolog\n\000[multipath]\0\n' > "$tmp/nul"
# one byte more than any reader's 1 MiB, as text
awk 'BEGIN { for (i = 0; i < 16385; i++) printf "%063d\n", i }' > "$tmp/big"
ln -s "$tmp/missing" "$tmp/dangling"
ln -s loop "$tmp/loop"
long=$(awk 'BEGIN { while (n++ < 300) printf "d/"; }')
"$mpsim" sweep --iodepth=1,2 --number_ios=64 -j 1 > "$tmp/sweep.csv"
dev=/dev
if [ "$(id -u)" = 0 ]; then
	echo "contract: running as root: the mode-000 file is readable, so" \
	    "its case reads an ordinary file (not a check of unreadable files)"
	# root may replace a device by renaming a file over it (--trace did
	# so to /dev/null): the cases get devices of their own, checked after
	mkdir "$tmp/dev"
	mknod -m 666 "$tmp/dev/zero" c 1 5
	mknod -m 666 "$tmp/dev/null" c 1 3
	mknod -m 666 "$tmp/dev/full" c 1 7
	dev=$tmp/dev
fi

# the values that take a command to make, made once
tab_v=$(printf '1\t2')
nl_v=$(printf '1\nx')
nlend_v=$(printf '1\nX')
nlend_v=${nlend_v%X}
cr_v=$(printf '1\rx')
esc_v=$(printf '\033[31mred')
rtl_v=$(printf '\342\200\256x')
badutf8_v=$(printf '\377\376')
long4k_v=$(awk 'BEGIN { while (n++ < 4096) printf "a" }')
long100k_v=$(awk 'BEGIN { while (n++ < 100000) printf "9" }')
ev_nl_v=$(printf 'sdd at 1s\nsde at 2s')

# value LABEL: set $v to the value called LABEL ($bare: give --opt alone).
value() {
	bare=
	case $1 in
	empty) v= ;;
	bare) v= bare=1 ;;
	zero) v=0 ;;
	one) v=1 ;;
	neg) v=-1 ;;
	negzero) v=-0 ;;
	u64max) v=18446744073709551615 ;;
	u64over) v=18446744073709551616 ;;
	i64min) v=-9223372036854775808 ;;
	huge) v=999999999999999999999999999999999999 ;;
	e308) v=1e308 ;;
	etiny) v=1e-308 ;;
	nan) v=nan ;;
	NaN) v=NaN ;;
	inf) v=inf ;;
	neginf) v=-inf ;;
	Infinity) v=Infinity ;;
	hex) v=0x10 ;;
	octal) v=010 ;;
	float) v=1.5 ;;
	spaces) v=' 1 ' ;;
	tab) v=$tab_v ;;
	nl) v=$nl_v ;;
	nlend) v=$nlend_v ;;
	cr) v=$cr_v ;;
	esc) v=$esc_v ;;
	utf8) v='é' ;;
	fullwidth) v='１' ;;
	emoji) v='🙂' ;;
	rtl) v=$rtl_v ;;
	badutf8) v=$badutf8_v ;;
	format) v='%s%n%x' ;;
	dollar) v='${HOME}' ;;
	backtick) v='`id`' ;;
	semicolon) v='1;2' ;;
	quote) v="'" ;;
	dquote) v='"' ;;
	backslash) v='\' ;;
	long4k) v=$long4k_v ;;
	long100k) v=$long100k_v ;;
	dashes) v=-- ;;
	eq) v== ;;
	comma) v=, ;;
	commas) v=,,, ;;
	dotdot) v=.. ;;
	range) v=1..3 ;;
	bigrange) v=1..18446744073709551615 ;;
	list) v=1,2 ;;
	d_s) v=18446744073s ;;
	d_ns) v=18446744073709551615ns ;;
	d_h) v=5124095h ;;
	d_neg) v=-1ms ;;
	d_frac) v=1.0000000001s ;;
	d_e) v=1e3ms ;;
	d_unit) v=1parsec ;;
	d_ms) v=1ms ;;
	s_p) v=16384p ;;
	s_big) v=99999999999999999999k ;;
	s_frac) v=4.5k ;;
	s_4k) v=4k ;;
	fixed0) v=fixed:0 ;;
	fixedmax) v=fixed:18446744073709551615ns ;;
	gamma_tiny) v=gamma:1ms,1e-200 ;;
	gamma_huge) v=gamma:1ms,1e300 ;;
	logn_huge) v=lognormal:1ms,1e200 ;;
	exp0) v=exp:0 ;;
	unif_back) v=uniform:2ms,1ms ;;
	exp_nan) v=exp:nan ;;
	ev) v='sdd at 1s' ;;
	ev_huge) v='sdd at 18446744073s' ;;
	ev_nl) v=$ev_nl_v ;;
	ev_none) v='nosuch at 1s' ;;
	expr_pow) v='(-1)^3' ;;
	expr_ov) v='9223372036854775807*2' ;;
	expr_div0) v='1/0' ;;
	f_dir) v=$tmp/dir ;;
	f_dirslash) v=$tmp/dir/ ;;
	f_fifo) v=$tmp/fifo ;;
	f_unreadable) v=$tmp/unreadable ;;
	f_missing) v=$tmp/missing ;;
	f_dangling) v=$tmp/dangling ;;
	f_loop) v=$tmp/loop ;;
	f_longpath) v=$tmp/$long ;;
	f_empty) v=$tmp/empty ;;
	f_nul) v=$tmp/nul ;;
	f_big) v=$tmp/big ;;
	f_sweep) v=$tmp/sweep.csv ;;
	f_zero) v=$dev/zero ;;
	f_null) v=$dev/null ;;
	f_full) v=$dev/full ;;
	f_tmp) v=/tmp ;;
	f_root) v=/ ;;
	f_mem) v=/proc/self/mem ;;
	*) echo "contract: no value '$1'" >&2; exit 3 ;;
	esac
}
# Every option gets the core values, and every ROT-th of the others (a
# different share for each option, so each value meets many options):
# all of them everywhere would take minutes.  Arguments that are not
# options (a command, merge's files, list's word) get every value.
core="empty bare zero neg u64over huge nan inf utf8 nl long100k d_s fixed0
f_dir f_fifo f_unreadable f_missing f_zero f_empty f_nul"
ROT=8
labels=$(sed -n 's/^	\([A-Za-z0-9_]*\)) v=.*/\1/p' "$0")

# check NAME ARGS...: run one invocation (in $tmp/cwd, where relative
# names land), print "FAIL NAME: why" on a breach of the contract.  Only
# shell built-ins besides the run itself: thousands of cases.
check() {
	name=$1
	shift
	rc=0
	timeout -s KILL "$limit" "$mpsim" "$@" > "$out" 2> "$err" \
	    < /dev/null || rc=$?
	lines=0 other= san=
	while IFS= read -r line || [ -n "$line" ]; do
		lines=$((lines + 1))
		case $line in
		*Sanitizer*|*'runtime error'*) san=${san:-$line} ;;
		'mpsim: '*) ;;
		*) other=${other:-$line} ;;
		esac
	done < "$err"
	why=
	if [ $rc -eq 137 ]; then
		why="no end within $limit s (killed)"
	elif [ $rc -gt 128 ]; then
		why="signal $((rc - 128))"
	elif [ $rc -gt 2 ]; then
		why="exit status $rc"
	elif [ -n "$san" ]; then
		why="sanitizer: $san"
	elif [ $rc -eq 2 ] && [ -s "$out" ]; then
		why="exit 2 with output on stdout"
	elif [ $rc -ne 0 ] && [ $lines -ne 1 ]; then
		why="exit $rc with $lines lines on stderr"
	elif [ -n "$other" ]; then
		why="exit $rc, a stderr line without 'mpsim: ': $other"
	fi
	if [ -n "$why" ]; then
		echo "FAIL $name: $why" | cut -c 1-200
	fi
}

# ---- the cases: one line each, "COMMAND FORM OPTION LABEL" ----
# FORM: opt (--OPTION=VALUE; bare: --OPTION), sep (OPTION VALUE, for -j),
# pos (VALUE as the command's argument), cmd (VALUE as the command).
commands=$("$mpsim" --help | awk '/^commands:/ { on = 1; next }
	on && /^$/ { exit } on && $1 !~ /^\(/ && /^  [a-z]/ { print $1 }')
run_opts=$( { "$mpsim" list options --format=walk | cut -f1; "$mpsim" --help |
	grep -o -e '--[a-z_]*[a-z]' | sed 's/^--//'; } |
	sed 's/^path\.NAME\./path.sdd./' | sort -u)
help_opts() {
	"$mpsim" "$1" --help 2>/dev/null | grep -o -e ' --*[a-z][a-z_-]*' |
	    sed 's/^ -*//' | sort -u
}
cases() {
	k=0
	for l in $labels; do
		echo "top cmd - $l"
	done
	for c in $commands; do
		case $c in
		run|compare) opts=$run_opts ;;
		sweep) opts=$(printf '%s\n' $run_opts $(help_opts sweep) | sort -u) ;;
		*) opts=$(help_opts "$c") ;;
		esac
		for o in $opts; do
			form=opt
			[ "$o" = j ] && form=sep
			k=$((k + 1))
			i=0
			for l in $labels; do
				i=$((i + 1))
				case " $core " in
				*" $l "*) ;;
				*) [ $(((i + k) % ROT)) -eq 0 ] || continue ;;
				esac
				echo "$c $form $o $l"
			done
		done
		case $c in
		merge|list|bench)
			for l in $labels; do
				echo "$c pos - $l"
			done ;;
		esac
	done
}

# one_case COMMAND FORM OPTION LABEL
one_case() {
	c=$1 form=$2 o=$3 l=$4
	value "$l"
	# small runs, one worker: every valid case ends in milliseconds
	limit=$TIMEOUT
	case $c in
	published) limit=$SLOW_TIMEOUT ;;
	esac
	case $c in
	run|compare) base="$c --number_ios=64 --runtime=100ms" ;;
	sweep) base="sweep -j 1 --number_ios=64 --runtime=100ms" ;;
	top) base= ;;
	*) base=$c ;;
	esac
	# shellcheck disable=SC2086
	set -- $base
	case $form in
	cmd) set -- "$v" ;;
	pos) [ "$c" = merge ] && set -- "$@" "--output=$tmp/out/m$wid.csv"
	     set -- "$@" "$v" ;;
	sep) set -- "$@" "-$o" "$v" ;;
	opt) if [ -n "$bare" ]; then
		set -- "$@" "--$o"
	     else
		set -- "$@" "--$o=$v"
	     fi
	     # merge needs an input besides its --output
	     if [ "$c" = merge ]; then set -- "$@" "$tmp/sweep.csv"; fi ;;
	esac
	case $form in
	cmd) check "mpsim ARG $l" "$@" ;;
	pos) check "$c ARG $l" "$@" ;;
	*) check "$c --$o $l" "$@" ;;
	esac
}

# worker N: every case whose number is N modulo 2 (and of the stride).
# Worker 0 says on stderr how far the cases are: on a terminal every
# hundredth of them (a few seconds each), elsewhere every tenth.
worker() {
	cd "$tmp/cwd"
	wid=$1
	out=$tmp/out.$1 err=$tmp/err.$1
	n=0
	while read -r c form o l; do
		n=$((n + 1))
		if [ "$wid" = 0 ] && [ $((n * steps / ncases)) != $(((n - 1) * steps / ncases)) ]; then
			echo "contract: $n/$ncases cases" >&2
		fi
		[ $((n % stride)) -eq 0 ] || continue
		[ $((n / stride % 2)) -eq "$1" ] || continue
		one_case "$c" "$form" "$o" "$l"
	done < "$tmp/cases"
}

cases > "$tmp/cases"
ncases=$(wc -l < "$tmp/cases")
steps=10
[ -t 2 ] && steps=100
worker 0 > "$tmp/fail.0" &
w0=$!
worker 1 > "$tmp/fail.1"
wait $w0

# a stdout that cannot be written: exit 1, one line
out=$tmp/out.2 err=$tmp/err.2
for c in "--version" "--help" "list scenarios" "list options" \
    "run --number_ios=64" "compare --number_ios=64" \
    "sweep -j 1 --number_ios=64" "timers --runtime=60s" "sweep --help" \
    "merge --help" "timers --help"; do
	# shellcheck disable=SC2086
	(cd "$tmp/cwd" && exec timeout -s KILL "$TIMEOUT" "$mpsim" $c) \
	    > /dev/full 2> "$err" < /dev/null && rc=0 || rc=$?
	: > "$out"
	if [ $rc -ne 1 ] || [ "$(wc -l < "$err")" -ne 1 ] ||
	    grep -v -q '^mpsim: ' "$err"; then
		echo "FAIL $c >/dev/full: exit $rc, stderr: $(head -c 120 "$err" | tr '\n' '|')"
	fi
done > "$tmp/fail.2"

# no case may have replaced a device or the FIFO by a file
for f in "$dev/zero" "$dev/null" "$dev/full"; do
	[ -c "$f" ] || echo "FAIL $f: no longer a device (a file was renamed over it)"
done >> "$tmp/fail.2"
[ -p "$tmp/fifo" ] || echo "FAIL the FIFO: replaced by a file" >> "$tmp/fail.2"

total=$(awk -v s="$stride" 'END { print int(NR / s) }' "$tmp/cases")
sort "$tmp"/fail.* > "$tmp/fail"
nfail=$(wc -l < "$tmp/fail")
cat "$tmp/fail"
if [ "$nfail" -ne 0 ]; then
	echo "contract: $nfail of $total cases (+11 /dev/full) break the contract"
	exit 1
fi
echo "contract: $total cases (+11 /dev/full): exit status, stdout and stderr as promised"
