#!/bin/sh
# trace.sh: the decision trace from the command line (--trace,
# --trace-format, --trace-from, --trace-until, --trace-count):
#   - stdout is the same with and without it (but for the options echoed
#     in the header line), in both formats, with --blktrace too;
#   - a short HST (jiffies) run shows, in its first end_io records, the
#     300 s first sample: started at the jiffies stamp 300 s behind ktime
#     (uptime 3600 s), charged now - start, weight 0 (bucket 63: the
#     history is dropped, docs/kernel-model.md §3.6), so hst = sample * 1024 and
#     stale_after = now + valid_count * sample;
#   - every record is one JSON object per line, and the bounds hold;
#     by default the ramp is left out, --trace-from=0 takes it; a window
#     that follows nothing warns;
#   - path failures, reinstates, requeues and dm-delay holds are events;
#   - the run record of a table of two priority groups names both
#     groups' selectors;
#   - bad trace options and targets of the wrong kind are refused
#     (status 2, nothing on stdout, no file), and a trace that cannot be written fails the run (status 1).
#
# Usage: sh tests/trace.sh [MPSIM]   (default ./mpsim)
set -eu

mpsim=${1:-./mpsim}
case $mpsim in /*) ;; *) mpsim=$(pwd)/$mpsim ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"
fail=0
n=0

bad() {
	echo "FAIL trace.sh: $*" >&2
	fail=1
}
ok() { n=$((n + 1)); }

# field NAME LINE: the integer value of "NAME":N in a JSON record
field() {
	printf '%s\n' "$2" | sed -n "s/.*\"$1\":\(-\{0,1\}[0-9]*\).*/\1/p"
}

# a run that ends when its I/Os do, so every one is followed to its end
short="--selector=hst --clock=jiffies --ramp_time=0 --runtime=0 --number_ios=300"

# ---- results unchanged ----
"$mpsim" run $short >plain.txt
"$mpsim" run $short --trace=t.jsonl --blktrace=blk >json.txt
"$mpsim" run $short --trace=t.txt --trace-format=text >text.txt
for f in json.txt text.txt; do
	if [ "$(tail -n +2 plain.txt)" = "$(tail -n +2 "$f")" ]; then
		ok
	else
		bad "stdout with --trace differs ($f)"
	fi
done
# the same options give the same trace, byte for byte
"$mpsim" run $short --trace=again.jsonl >/dev/null
if cmp -s t.jsonl again.jsonl; then ok; else bad "trace not deterministic"; fi

# ---- every line a JSON object; the records an I/O goes through ----
if grep -qv '^{"t":[0-9]*,"ev":"[a-z_]*".*}$' t.jsonl; then
	bad "a line of t.jsonl is not a record: $(grep -v '^{"t":' t.jsonl | head -1)"
else
	ok
fi
subs=$(grep -c '"ev":"submit"' t.jsonl)
for ev in map arrive dispatch complete end_io done; do
	c=$(grep -c "\"ev\":\"$ev\"" t.jsonl)
	if [ "$c" -eq "$subs" ]; then ok; else bad "$c $ev records for $subs submits"; fi
done
tl=$(grep -c . t.txt)
jl=$(grep -c . t.jsonl)
if [ "$tl" -eq "$jl" ]; then ok; else bad "text has $tl lines, JSON $jl"; fi

# ---- the 300 s first sample and the stale_after it sets ----
first=$(grep -m1 '"ev":"end_io"' t.jsonl)
start=$(field start "$first")
now=$(field now "$first")
st=$(field last_service "$first")
w=$(field last_weight "$first")
hst=$(field hst "$first")
stale=$(field stale_after "$first")
fin=$(field last_finish "$first")
if [ "$start" = 3300000000000 ]; then ok; else bad "first start stamp $start, not 3300 s"; fi
if [ "$st" = $((now - start)) ] && [ "$st" -ge 300000000000 ] &&
   [ "$st" -lt 300100000000 ]; then ok; else bad "first sample $st, not now - start ~ 300 s"; fi
if [ "$w" = 0 ] && [ "$hst" = $((st * 1024)) ]; then ok; else bad "first sample weight $w hst $hst"; fi
if [ "$fin" = "$now" ] && [ "$stale" = $((now + 10 * st)) ]; then ok; else bad "stale_after $stale, not now + 10 * $st"; fi
# and the map records show the paths select_path compared, with the now
m=$(grep -m1 '"ev":"map"' t.jsonl)
if [ "$(field now "$m")" = 3600000000000 ] &&
   [ "$(printf '%s' "$m" | grep -o '{"path":' | wc -l)" -eq 10 ]; then ok; else bad "first map record: $m"; fi

# ---- bounds ----
"$mpsim" run $short --trace=c.jsonl --trace-count=5 >/dev/null
if [ "$(grep -c '"ev":"submit"' c.jsonl)" -eq 5 ] &&
   [ "$(grep -c '"ev":"done"' c.jsonl)" -eq 5 ]; then ok; else bad "--trace-count=5"; fi
# --trace-max: no new I/O is followed once the file holds that much; the
# I/Os followed are followed to their end, and the run says so, and says
# beforehand how much the trace would have been
"$mpsim" run --runtime=10s --trace=m.jsonl --trace-max=1m >/dev/null 2>err.txt
sz=$(wc -c <m.jsonl)
if [ "$sz" -ge 1048576 ] && [ "$sz" -lt 1148576 ] &&
   [ "$(grep -c '"ev":"submit"' m.jsonl)" -eq "$(grep -c '"ev":"done"' m.jsonl)" ] &&
   grep -q '^mpsim: warning: --trace would write about 1.[0-9]* GB; no new I/O is followed once it holds 1048576 bytes (--trace-max)$' err.txt &&
   grep -q '^mpsim: warning: --trace: stopped following new I/Os at [0-9.]* s, its files past 1048576 bytes (--trace-max): [0-9]* I/Os followed$' err.txt &&
   [ "$(wc -l <err.txt)" -eq 2 ]; then ok; else bad "--trace-max=1m: $sz bytes, $(cat err.txt)"; fi
"$mpsim" run $short --trace=w.jsonl --trace-from=1ms --trace-until=2ms >/dev/null
out=$(grep '"ev":"submit"' w.jsonl | sed 's/^{"t":\([0-9]*\),.*/\1/' |
      awk '$1 < 1000000 || $1 >= 2000000' | wc -l)
ins=$(grep -c '"ev":"submit"' w.jsonl)
if [ "$out" -eq 0 ] && [ "$ins" -gt 0 ]; then ok; else bad "--trace-from/until: $out of $ins outside"; fi

# ---- events ----
"$mpsim" run $short --delay=1 --fail='sdd at 5ms' --reinstate='sdd at 10ms' \
	--trace=e.jsonl >/dev/null
for ev in fail_path reinstate_path; do
	if [ "$(grep -c "\"ev\":\"$ev\"" e.jsonl)" -eq 1 ]; then ok; else bad "no $ev record"; fi
done
rq=$(grep -c '"ev":"requeue"' e.jsonl)
er=$(grep '"ev":"complete"' e.jsonl | grep -c '"error":-5')
if [ "$rq" -gt 0 ] && [ "$rq" -eq "$er" ]; then ok; else bad "$rq requeues, $er errored completions"; fi
hold=$(grep -c '"ev":"delay_hold"' e.jsonl)
subs=$(grep -c '"ev":"submit"' e.jsonl)
# every write is held by dm-delay (1 ms on every path); a requeued I/O
# is held again on its new path
if [ "$hold" -eq $((subs + rq)) ]; then ok; else bad "$hold holds for $subs submits and $rq requeues"; fi

# by default the trace follows the measured window: the ramp is left
# out; --trace-from=0 takes the whole run
ramp="--selector=hst --ramp_time=10ms --runtime=0 --number_ios=300"
"$mpsim" run $ramp --trace=r.jsonl >/dev/null
t=$(grep -m1 '"ev":"submit"' r.jsonl | sed 's/^{"t":\([0-9]*\),.*/\1/')
if [ "$t" -ge 10000000 ]; then ok; else bad "default trace: first submit at $t ns, inside the 10 ms ramp"; fi
"$mpsim" run $ramp --trace=r.jsonl --trace-from=0 >/dev/null
t=$(grep -m1 '"ev":"submit"' r.jsonl | sed 's/^{"t":\([0-9]*\),.*/\1/')
if [ "$t" -eq 0 ]; then ok; else bad "--trace-from=0: first submit at $t ns, not 0"; fi

# ---- bad input and failed output ----
refuse() {
	want=$1
	shift
	rm -f out.txt x.jsonl x.jsonl.tmp
	set +e
	"$mpsim" run $short "$@" >out.txt 2>err.txt
	rc=$?
	set -e
	if [ "$rc" -ne "$want" ] || [ -s out.txt ] || [ -e x.jsonl ] ||
	   [ -e x.jsonl.tmp ] || [ "$(grep -c '^mpsim: ' err.txt)" -ne 1 ]; then
		bad "$* gave status $rc (want $want), stdout $(wc -c <out.txt) bytes: $(cat err.txt)"
	else
		ok
	fi
}
refuse 2 --trace=x.jsonl --trace-format=xml
refuse 2 --trace-format=text
refuse 2 --trace-count=3
refuse 2 --trace=x.jsonl --trace-count=0
refuse 2 --trace=x.jsonl --trace-max=lots
refuse 2 --trace-max=1g
refuse 2 --trace=x.jsonl --trace-from=2ms --trace-until=1ms
refuse 2 --trace=x.jsonl --trace-from=5
refuse 2 --trace=x.jsonl --selector_args=2000
refuse 1 --trace=no-such-dir/x.jsonl
# a target of the wrong kind is bad input, found before the run: nothing
# is created beside it
mkdir -p adir
mkfifo afifo
touch afile
refuse 2 --trace=adir --trace-count=1
if [ ! -e adir.tmp ]; then ok; else bad "--trace=adir created adir.tmp"; fi
refuse 2 --trace=afifo
refuse 2 --trace=/dev/null
refuse 2 --trace=x.jsonl --blktrace=afile
# a window that follows no I/O says so (an empty measurement is not silent)
"$mpsim" run --trace=e.jsonl --trace-from=50ms --runtime=10ms --ramp_time=0 >out.txt 2>err.txt
if grep -q '^mpsim: warning: .*trace.*no I/O' err.txt; then ok; else bad "an empty trace window gave no warning: $(cat err.txt)"; fi

# a table of two priority groups: the run record names both selectors
"$mpsim" run --scenario="$top/tests/golden/table.ini" --runtime=10ms \
	--trace=g.jsonl --trace-count=1 >/dev/null 2>&1
if head -1 g.jsonl | grep -q '"ev":"run","selector":"service-time","groups":"service-time,historical-service-time"'; then
	ok
else
	bad "two groups: run record $(head -1 g.jsonl)"
fi
if head -1 t.jsonl | grep -q '"groups"'; then bad "one group: groups in the run record"; else ok; fi

set +e
"$mpsim" compare --trace=x.jsonl >out.txt 2>err.txt
rc=$?
set -e
if [ "$rc" -eq 2 ] && [ ! -s out.txt ] && [ ! -e x.jsonl ]; then ok; else bad "compare --trace: status $rc"; fi

if [ "$fail" -ne 0 ]; then
	exit 1
fi
echo "trace.sh: $n checks passed"
