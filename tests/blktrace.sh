#!/bin/sh
# blktrace.sh: what --blktrace writes is read, unchanged, by Debian's
# blkparse and btt (package blktrace), and what they measure is what mpsim
# measured:
#   - blkparse reads every file with no complaint and no skipped records;
#   - per path, its Q and C records count the I/Os mpsim counts on that
#     path, and on dm-0 the I/Os of the whole run;
#   - btt's D2C mean (dispatch to completion) on a path is the device's
#     mean service time.  mpsim has that figure for a one-slot device:
#     its busy time is then the sum of its service times, so the mean is
#     busy * sim_time / ios (every path of the scenario has slots = 1);
#   - btt's Q2C mean on a path is the path's lat_mean_us (the path's Q is
#     recorded at mapping, which is the submission here: no I/O waits for
#     a path), and on dm-0 the run's lat_mean_us.
# Agreement within 1 %; the run has no ramp and no runtime, so every I/O
# traced is an I/O measured.  Then: a failed path's Q and C are its ios
# plus errors, and with a ramp dm-0's Q falls short of ios by at most the
# I/Os in flight when the ramp ended (the trace's default window is the
# measured one).
#
# Usage: sh tests/blktrace.sh [MPSIM]   (default ./mpsim)
set -eu

mpsim=${1:-./mpsim}
case $mpsim in /*) ;; *) mpsim=$(pwd)/$mpsim ;; esac
for t in blkparse btt; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "blktrace.sh: needs $t: apt-get install blktrace" >&2
		exit 1
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"
fail=0
n=0
bad() {
	echo "FAIL blktrace.sh: $*" >&2
	fail=1
}
ok() { n=$((n + 1)); }

# json KEY LINE: the value of "KEY": in one line of mpsim's JSON, a
# path's or the total's own (the per-direction objects follow them)
json() {
	printf '%s\n' "$2" | sed 's/, "read": {.*//' |
		sed -n "s/.*\"$1\": \"\{0,1\}\([^\",}]*\).*/\1/p"
}

# within A B: A and B agree within 1 % of B
within() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(b > 0 && d <= 0.01 * b) }'
}

# check DEV IOS D2C_US Q2C_US: one device's files against mpsim's figures
# (D2C_US empty: the device has no D records to measure)
check() {
	dev=$1 ios=$2 d2c=$3 q2c=$4
	if ! blkparse -i "$dev" -o "$dev.txt" >"$dev.err" 2>&1; then
		bad "blkparse -i $dev failed: $(cat "$dev.err")"
		return
	fi
	if grep -v "^Input file $dev.blktrace.0 added\$" "$dev.err" | grep -q .; then
		bad "blkparse -i $dev complained: $(cat "$dev.err")"
	elif ! grep -q '^Skips: 0 forward' "$dev.txt"; then
		bad "blkparse -i $dev skipped records: $(grep '^Skips' "$dev.txt")"
	else
		ok
	fi
	blkparse -q -i "$dev" -f '%a\n' 2>/dev/null | grep -v "^Input file" | sort | uniq -c >"$dev.acts"
	for a in Q C; do
		c=$(awk -v a=$a '$2 == a { print $1 }' "$dev.acts")
		if [ "${c:-0}" -eq "$ios" ]; then ok; else bad "$dev: ${c:-0} $a records for $ios I/Os"; fi
	done
	blkparse -q -i "$dev" -d "$dev.bin" -o /dev/null >/dev/null 2>&1
	if ! btt -i "$dev.bin" -o "$dev" >"$dev.btt" 2>&1; then
		bad "btt -i $dev.bin failed: $(cat "$dev.btt")"
		return
	fi
	if [ -n "$d2c" ]; then
		got=$(awk '$1 == "D2C" { print $3 * 1e6 }' "$dev.avg")
		if within "${got:-0}" "$d2c"; then ok; else bad "$dev: btt D2C ${got:-none} us, mpsim busy*time/ios $d2c us"; fi
	fi
	q=Q2C
	[ "$dev" = dm-0 ] && q=Q2Cdm
	got=$(awk -v q=$q '$1 == q { print $3 * 1e6 }' "$dev.avg")
	if within "${got:-0}" "$q2c"; then ok; else bad "$dev: btt $q ${got:-none} us, mpsim lat_mean_us $q2c"; fi
}

"$mpsim" run --selector=st --ramp_time=0 --runtime=0 --number_ios=3000 \
	--format=json --blktrace=blk >run.json
cd blk
total=$(grep '"total":' ../run.json)
sim_s=$(json sim_time_s "$total")
grep '^  {"path": ' ../run.json >paths
[ "$(grep -c . paths)" -eq 10 ] || bad "expected 10 paths in the JSON"
# each path's name, I/Os, busy fraction, mean latency (read as json()
# reads them) and mean service time, busy * time / ios, in one awk
awk -v t="$sim_s" '
function val(line, key,   s, r) {
	r = ""
	while (match(line, "\"" key "\": \"?[^\",}]*")) {
		s = substr(line, RSTART, RLENGTH); sub("^\"" key "\": \"?", "", s); r = s
		line = substr(line, RSTART + RLENGTH) }
	return r }
{ l = $0; sub(/, "read": \{.*/, "", l); ios = val(l, "ios"); busy = val(l, "busy")
  printf "%s\t%s\t%s\t%s\t%s\n", val(l, "path"), ios, busy, val(l, "lat_mean_us"),
      (ios + 0 > 0 ? sprintf("%.6f", busy * t / ios * 1e6) : "") }' paths >paths.tab
while IFS='	' read -r p ios busy lat svc; do
	if [ "$ios" -eq 0 ]; then
		bad "$p served nothing: the test needs every path busy"
		continue
	fi
	check "$p" "$ios" "$svc" "$lat"
done <paths.tab
check dm-0 "$(json ios "$total")" "" "$(json lat_mean_us "$total")"
files=$(ls | grep -c '\.blktrace\.0$')
if [ "$files" -eq 11 ]; then ok; else bad "$files trace files, not 11"; fi

cd ..

# count DIR DEV ACT: the ACT records blkparse finds in DIR/DEV's file
count() {
	(cd "$1" && blkparse -q -i "$2" -f '%a\n' 2>/dev/null) | grep -c "^$3\$"
}

# a failed path: each I/O it errors is queued and completed (C with
# -EIO) there too, so per path Q and C are ios + errors
"$mpsim" run --selector=st --ramp_time=0 --runtime=0 --number_ios=3000 \
	--fail='sdd at 5ms' --reinstate='sdd at 10ms' --format=csv \
	--blktrace=failed >failed.csv
row=$(grep '^sdd,' failed.csv)
ios=$(echo "$row" | cut -d, -f2)
errs=$(awk -F, 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == "errors") c = i }
	$1 == "sdd" { print $c }' failed.csv)
[ "${errs:-0}" -gt 0 ] || bad "the failure errored no I/O on sdd"
for a in Q C; do
	c=$(count failed sdd $a)
	if [ "$c" -eq $((ios + errs)) ]; then ok; else bad "failed sdd: $c $a records for $ios I/Os and $errs errors"; fi
done

# the default window is the measured one: the ramp is not traced; the
# I/Os in flight when it ends (iodepth x numjobs at most, 64 here) are
# counted by mpsim but were submitted before it
"$mpsim" run --selector=st --ramp_time=10ms --runtime=0 --number_ios=3000 --iodepth=64 \
	--format=csv --blktrace=ramped >ramped.csv
c=$(count ramped dm-0 Q)
if [ "$c" -le 3000 ] && [ "$c" -ge $((3000 - 64)) ]; then ok; else bad "ramped: dm-0 has $c Q records for 3000 I/Os measured"; fi

if [ "$fail" -ne 0 ]; then
	exit 1
fi
echo "blktrace.sh: $n checks passed"
