#!/bin/sh
# window.sh: what the command line says about its measured window.  The
# warnings of an empty window and of scripted events the run ended
# before, the warnings of options that cannot apply, and Little's law in
# a sweep (iops x mean latency = numjobs x iodepth for closed loops ended
# by number_ios, size or runtime, with and without ramp_time).
#
# usage: window.sh MPSIM        (run from the repository's top)
set -eu
suite=window
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
LOG=tests/iolog/fio-randrw-v3.log


# warns WORDS -- ARGS: exit 0, a figure on stdout, WORDS on stderr.
warns() {
	want=$1
	shift 2
	st=0
	"$mpsim" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
	if [ "$st" != 0 ] || [ ! -s "$tmp/out" ]; then
		bad "mpsim $*: exit status $st"
	elif grep -q "mpsim: warning: .*$want" "$tmp/err"; then
		ok
	else
		bad "mpsim $*: no warning '$want' on stderr:"
		sed 's/^/  | /' "$tmp/err"
	fi
}

# A replay asked to ramp longer than the log lasts: nothing measured.
warns "every job finished inside ramp_time" -- \
	--read_iolog=$LOG --ramp_time=1s
# Every job done at 100 I/Os, long before the event.
warns "1 scripted fail/reinstate event never ran" -- \
	--number_ios=100 --ramp_time=0 "--fail=sdd at 5s"
# a sweep's workers print nothing: the sweep says it once at the end
warns "sweep: 1 point measured no I/O (the first: point 1)" -- sweep \
	--read_iolog=$LOG --ramp_time=0,1s
warns "sweep: 2 points ended before scripted" -- sweep --number_ios=100 \
	--ramp_time=0 "--fail=sdd at 5s" --iodepth=1,2
warns "does not apply in request mode" -- --mode=request --clock=jiffies
warns "service-time does not read the bio start stamp" -- --selector=st \
	--clock=jiffies --runtime=20ms
warns "--hz=100 changes nothing here" -- --hz=100 --runtime=20ms
warns "stonewall changes nothing: it is the only job" -- --stonewall \
	--runtime=20ms
warns "request_stats = 0 changes nothing in bio mode" -- \
	--path.sdd.request_stats=0 --runtime=20ms
warns "--uptime changes nothing here" -- sweep --uptime=1s,2s --runtime=20ms
warns "HST columns are the same run" -- compare --mode=request \
	--runtime=50ms --ramp_time=0
grep -q "In request mode the HST columns are one run" "$tmp/out" && ok ||
	bad "compare --mode=request: the table's legend says nothing"
# and nothing of the sort when all is well
"$mpsim" --number_ios=1000 --ramp_time=10ms >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && bad "a plain number_ios run warns: $(cat "$tmp/err")" || ok

# The issue's runs: the figures of the I/Os done, over the time they took.
"$mpsim" --selector=st --clock=ktime --iodepth=1 --number_ios=20000 \
	--format=csv >"$tmp/out" 2>/dev/null
awk -F, '$1 == "path" { for (i = 1; i <= NF; i++) c[$i] = i }
	$1 == "total" { ios = $c["ios"]; lat = $c["lat_mean_us"] }
	/^# / || $1 == "path" || $1 == "total" { next }
	END { exit !(ios == 20000) }' "$tmp/out" && ok ||
	bad "--number_ios=20000 does not measure 20000 I/Os"
"$mpsim" --read_iolog=$LOG | grep -q '^| total | 266 |' && ok ||
	bad "--read_iolog does not measure the whole log (266 I/Os)"

# Little's law in a sweep: the total row's iops_mean x lat_mean_us_mean.
little() {
	want=$1
	shift
	"$mpsim" sweep "$@" --ramp_time=0,50ms >"$tmp/sweep" 2>"$tmp/err" ||
		{ bad "sweep $*: failed"; cat "$tmp/err"; return; }
	awk -F, -v want="$want" -v what="sweep $*" '
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$c["path"] == "total" {
		n++
		l = $c["iops_mean"] * $c["lat_mean_us_mean"] / 1e6
		if (l / want - 1 > 0.01 || 1 - l / want > 0.01) {
			printf "window: %s ramp_time=%s: iops x lat = %.4f, not %d\n",
			    what, $c["ramp_time"], l, want
			bad = 1
		}
	}
	END { exit bad || n != 2 }' "$tmp/sweep" && ok || fail=$((fail + 1))
}
little 8 --iodepth=8 --numjobs=1 --number_ios=60000
little 8 --iodepth=8 --numjobs=1 --size=240m
little 8 --iodepth=4 --numjobs=2 --runtime=300ms

# --format=dmsetup with --interval: when the last interval ends at the
# run's end, the device is in one state there and its pair is printed
# once: no two consecutive pairs are the same
dmsetup_once() {
	"$mpsim" --format=dmsetup --ramp_time=0 "$@" >"$tmp/dm"
	awk '/^#/ { if (n && pair == prev) dup = 1; prev = pair; pair = ""; n++; next }
	     { pair = pair $0 "\n" }
	     END { if (pair == prev) dup = 1; exit dup }' "$tmp/dm" &&
		ok || bad "dmsetup $*: a status/table pair printed twice"
}
dmsetup_once --interval=100ms --runtime=200ms
dmsetup_once --interval=150ms --runtime=200ms

finish
