#!/bin/sh
# live.sh: mpsim live's refusals, which come before anything is built or
# booted (so this needs neither user-mode-linux nor root): each bad input
# is one line on stderr starting "mpsim: ", nothing on stdout, status 2.
# The kernel side itself runs in `make live-check`.
#
# usage: live.sh MPSIM
set -eu
suite=live
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
cd "$tmp"

cat > two.ini <<'INI'
[multipath]
table = 0 65536 multipath 2 queue_mode bio 0 1 1 service-time 0 2 2 a 1 1 b 1 1
[path a]
service = sync
delay = 2
[path b]
service = sync
delay = 20
[r]
rw = randread
iodepth = 4
runtime = 2s
INI
sed '/^table/d' two.ini > notable.ini
sed 's/ b 1 1$//; s/0 2 2 a/0 1 2 a/' two.ini > nob.ini
sed 's/delay = 2$/delay = 2.5ms/' two.ini > frac.ini
sed 's/^service = sync$/service = sync\nwrite_cache = maybe/' two.ini > cache.ini
sed 's/service-time 0/no-such-selector 0/' two.ini > badsel.ini
printf '[global]\nrw=read\n[a]\nruntime=1s\nnew_group\n' > newgroup.fio
printf 'rw=read\n' > nosection.fio

# refusal LABEL PATTERN COMMAND...: status 2, one stderr line matching
# PATTERN, no stdout
refusal() {
	label=$1 pattern=$2
	shift 2
	if timeout 20 "$@" >out 2>err </dev/null; then rc=0; else rc=$?; fi
	if [ "$rc" = 2 ] && [ ! -s out ] && [ "$(wc -l < err)" = 1 ] &&
	    grep -q "$pattern" err; then
		ok
	else
		bad "$label: status $rc, stderr:
$(cat err out)"
	fi
}

# refused LABEL WORD ARGS...: mpsim live ARGS is refused naming WORD
refused() {
	label=$1 word=$2
	shift 2
	refusal "$label" "^mpsim: .*$word" "$mpsim" live "$@"
}

refused "no scenario" "scenario" --job=x.fio
refused "missing file" "nope.ini" --scenario=nope.ini
# mpsim's own reader reads the files first: a FIFO or a device is refused
# at once, not read (and waited on) by the script
mkfifo fifo
refused "a FIFO" "a FIFO, not a scenario" --scenario=fifo
refused "a device" "a device, not a scenario" --scenario=/dev/zero
refused "a job FIFO" "a FIFO" --scenario=two.ini --job=fifo
nl='a
b'
refused "a line break" "line break" --scenario="$nl"
refused "a line break in repeats" "line break" --scenario=two.ini --repeats="3
"
refused "repeats 0" "repeats" --scenario=two.ini --repeats=0
refused "repeats word" "repeats" --scenario=two.ini --repeats=many
refused "boots 0" "boots" --scenario=two.ini --boots=0
refused "boots word" "boots" --scenario=two.ini --boots=all
refused "two paths, no table" "no table" --scenario=notable.ini
refused "a path the table lacks" "path b" --scenario=nob.ini
refused "a delay in fractions" "2.5ms" --scenario=frac.ini
refused "a fractional delay on the command line" "1.5ms" --scenario=two.ini --delay=1.5ms
refused "write_cache" "write_cache" --scenario=cache.ini
refused "hz" "HZ=100" --scenario=two.ini --hz=250
refused "kernel" "kernel" --scenario=two.ini --kernel=5.15
refused "a path override of no path" "path c" --scenario=two.ini --path.c.delay=1
refused "a word, not an option" "KEY=VALUE" --scenario=two.ini stray
refused "a selector mpsim lacks" "no-such-selector" --scenario=badsel.ini
refused "a missing selector source" "nope.c" --scenario=two.ini --selector-source=nope.c
refused "new_group without stonewall" "new_group" --scenario=two.ini --job=newgroup.fio
refused "check's --cases" "--cases" --scenario=two.ini --cases='hst-*'
refused "check's --results" "--results" --scenario=two.ini --results=out.md
refused "an option before any section" "before any section" --scenario=two.ini --job=nosection.fio

# make live-check's choice of cases: a pattern that matches no case of
# the grid is refused before anything is built
for sel in nope "hst-*,nope" "hst-*,"; do
	refusal "check --cases=$sel" "^mpsim: live: --cases=" \
	    env MPSIM="$mpsim" python3 "$here/../live/live.py" check --cases="$sel"
done

# the harness's arithmetic (fio's JSON, the interval, the CPU time measured,
# the verdicts): a unittest file of its own
if MPSIM=$mpsim python3 "$here/live_unit.py" >out 2>&1; then
	ok
else
	bad "live_unit.py:
$(cat out)"
fi

finish
