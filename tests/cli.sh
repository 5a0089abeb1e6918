#!/bin/sh
# cli.sh: the command line's conventions: --help for every command, the
# main help naming every option of the documentation's tables, fio's names
# (--name jobs, --output, --output-format), the built-in scenario names,
# sweep lists with commas inside values, merge's refusal of another
# sweep's file and its close match for a mistyped option, --list-runs commands that run without PATH, a
# selector's own lists in a sweep, and outputs written through symbolic
# links.
#
# usage: cli.sh MPSIM
set -eu
suite=cli
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$tmp"

# Every command of mpsim.c's table answers --help: usage on stdout,
# status 0, no stderr; the main help lists it.
cmds=$(sed -n 's/^	{ "\([a-z]*\)", cmd_.*/\1/p' "$top/mpsim.c")
[ "$(echo "$cmds" | wc -w)" -ge 7 ] || no "mpsim.c: the command table was not found"
for c in $cmds; do
	"$mpsim" --help | grep -q "^  $c " && ok || no "mpsim --help does not list $c"
	if "$mpsim" "$c" --help >h.out 2>h.err && [ ! -s h.err ] &&
	    grep -q "^usage: mpsim.*$c\|^usage: mpsim \[run\]" h.out; then
		ok
	else
		no "$c --help"
	fi
	"$mpsim" help "$c" >h2.out && cmp -s h.out h2.out && ok ||
	    no "mpsim help $c differs from $c --help"
done

# names KIND TEXT MESSAGE, one a line on stdin: one awk over main.txt
# says for each, in order, whether it holds TEXT ("ok") or not (the
# message): KIND "text" anywhere, "word" as a whole word (grep -w),
# "start" with no word character after it (grep's TEXT\b).
names() {
	awk -F'\t' '
	function w(c) { return c ~ /[A-Za-z0-9_]/ }
	function has(kind, t,   i, k, l, at) {
		for (l = 1; l <= nl; l++) { k = 0
			while ((i = index(substr(L[l], k + 1), t))) { at = k + i
				if (kind == "text" || ((kind == "start" || at == 1 ||
				    !w(substr(L[l], at - 1, 1))) &&
				    !w(substr(L[l], at + length(t), 1)))) return 1
				k = at } }
		return 0 }
	FILENAME == ARGV[1] { L[++nl] = $0; next }
	{ print (has($1, $2) ? "ok" : "no " $3) }' main.txt - >verdicts
	while read -r v msg; do
		if [ "$v" = ok ]; then ok; else no "$msg"; fi
	done <verdicts
}

# The main help names every option of the option tables of the README and
# of docs/.
"$mpsim" --help >main.txt
for o in $(cat "$top/README.md" "$top"/docs/*.md | grep -o '^| `--[a-z_.A-Z-]*' | sed 's/^| `//' | sort -u) \
    --columns --version --output --output-format --name; do
	case $o in --path.NAME.KEY) o=--path.NAME.KEY= ;; esac
	printf 'text\t%s\tmpsim --help does not name %s\n' "$o" "$o"
done >names.txt
names <names.txt

# ... and every option the program's tables accept: [path] keys as words
# (--path.NAME.KEY), the others as --key; the table must be found, or
# the loop would check nothing
grep -q '^	{ "[a-z_]*", SEC_[A-Z]*' "$top/input/scenario-options.c" && ok ||
	no "no option table in input/scenario-options.c"
for k in $(grep -o '^	{ "[a-z_]*", SEC_[A-Z]*' "$top/input/scenario-options.c" | tr -d '{",	' |
    sed 's/ SEC_/:/') $(grep -o '^	{ "[a-z_]*", \(0\|FO_FLAG\)' \
    "$top/workloads/fio-opts.c" | cut -d'"' -f2 | sed 's/$/:JOB/'); do
	key=${k%%:*}
	case $k in
	*:PATH) printf 'word\t%s' "$key" ;;
	*) printf 'start\t--%s' "$key" ;;
	esac
	printf '\tmpsim --help does not name the option %s\n' "$key"
done >names.txt
names <names.txt

# --name: a fio command line is the job file it spells, read as fio's.
cat >w.fio <<'JOB'
[global]
bs=8k
[w]
rw=randwrite
ioengine=libaio
iodepth=8
runtime=200ms
[r]
rw=read
number_ios=300
JOB
"$mpsim" --job=w.fio --format=csv | grep -v '^#' >job.csv
"$mpsim" --bs=8k --name=w --rw=randwrite --ioengine=libaio --iodepth=8 \
    --runtime=200ms --name=r --rw=read --number_ios=300 --format=csv |
    grep -v '^#' >name.csv
cmp -s job.csv name.csv && ok || no "--name jobs differ from the job file's"
# fio's defaults: ioengine=psync caps iodepth, as the job file's would
"$mpsim" --name=x --rw=read --iodepth=8 --runtime=100ms 2>warn.txt >/dev/null
grep -q 'capped at 1' warn.txt && ok || no "--name did not start from fio's defaults"
"$mpsim" --job=w.fio --name=x --runtime=1s >/dev/null 2>err.txt && no "--job with --name accepted" || ok

# --output is the same output as stdout; --output-format=normal is the
# table
"$mpsim" --runtime=100ms --format=json >a.json
"$mpsim" --runtime=100ms --format=json --output=b.json >b.stdout
[ ! -s b.stdout ] && sed 's/ --output=b.json//' b.json | cmp -s - a.json && ok ||
    no "--output=FILE differs from stdout"
# --output-format=json is fio's JSON (tests/fio-tools.sh), mpsim's own
# stays --format=json
"$mpsim" --runtime=100ms --output-format=json >f.json
grep -q '^  "fio version" : "fio-3.33",$' f.json && ! cmp -s f.json a.json && ok ||
    no "--output-format=json is not fio's JSON"
"$mpsim" --runtime=100ms --output-format=normal >n.txt
"$mpsim" --runtime=100ms >t.txt
sed 's/ --output-format=normal//' n.txt | cmp -s - t.txt && ok ||
    no "--output-format=normal differs from the table"
# a bad option leaves no output file at all
"$mpsim" --runtime=100ms --iodepth=0 --output=bad.txt 2>/dev/null && no "iodepth 0 accepted" ||
    { [ ! -e bad.txt ] && [ ! -e bad.txt.tmp ] && ok || no "--output left a file on bad input"; }

# an unknown scenario name lists the built-in ones
"$mpsim" --scenario=nonesuch 2>err.txt && no "unknown scenario accepted" || true
for s in $("$mpsim" list scenarios | cut -d' ' -f1); do
	grep -q "$s" err.txt && ok || no "--scenario=nonesuch does not list $s"
done
# list scenarios: the name and one line of description each
n=$(ls "$top"/workloads/scenarios/*.ini | wc -l)
[ "$("$mpsim" list scenarios | grep -c '^[a-z0-9-]*  *[a-zA-Z]')" -eq "$n" ] && ok ||
    no "list scenarios: not one described line per built-in scenario"

# a sweep value holding a comma: \, inside a list
"$mpsim" --path.sdj.service=lognormal:1ms,1.5 --runtime=100ms --format=csv |
    grep '^sdj,' | cut -d, -f2 >run.ios
"$mpsim" sweep --path.sdj.service='exp:1ms,lognormal:1ms\,1.5' --runtime=100ms >sw.csv
grep -q ',"lognormal:1ms,1.5",sdj,' sw.csv && ok || no "sweep did not take lognormal:1ms\\,1.5 as one value"

# merge refuses an --output that holds another sweep, and leaves it alone
"$mpsim" sweep --iodepth=1,2 --runtime=20ms --output=a.csv --list-runs >runs.txt
# the commands name this binary, and run with no mpsim on PATH
head -1 runs.txt | grep -q "^$mpsim sweep " && ok || no "--list-runs does not name $mpsim"
env PATH=/usr/bin:/bin sh runs.txt && ok || no "--list-runs commands fail without mpsim on PATH"
"$mpsim" sweep --iodepth=4 --runtime=20ms --output=other.csv
cp other.csv other.before
"$mpsim" merge --output=other.csv a.points/*.csv 2>err.txt && no "merge overwrote another sweep" ||
    { cmp -s other.csv other.before && grep -q 'another sweep' err.txt && ok ||
      no "merge: another sweep's file changed or not named"; }
"$mpsim" merge --output=a.csv a.points/*.csv && "$mpsim" sweep --iodepth=1,2 \
    --runtime=20ms --output=local.csv && cmp -s a.csv local.csv && ok ||
    no "merge of the listed runs differs from the local sweep"

# a selector's own lists (--selector=st,hst:clock=jiffies,ktime): no
# point twice, no warning, and its listed runs merge into the local file
"$mpsim" sweep --iodepth=1,4 --selector=st,hst:clock=jiffies,ktime \
    --runtime=20ms --output=own.csv 2>err.txt
[ ! -s err.txt ] && ok || no "a selector's own clocks: stderr '$(cat err.txt)'"
got=$(awk -F, '/^#/ || $1 == "mpsim_version" { next } $15 == "total" { print $11, $6, $8 }' own.csv | tr '\n' ';')
[ "$got" = "1 service-time ktime;1 historical-service-time jiffies;1 historical-service-time ktime;4 service-time ktime;4 historical-service-time jiffies;4 historical-service-time ktime;" ] &&
    ok || no "a selector's own clocks ran: $got"
"$mpsim" sweep --iodepth=1,4 --selector=st,hst:clock=jiffies,ktime \
    --runtime=20ms --output=own-m.csv --list-runs >runs.txt
sh runs.txt && "$mpsim" merge --output=own-m.csv own-m.points/*.csv &&
    cmp -s own.csv own-m.csv && ok ||
    no "a sweep with a selector's own clocks: the merged runs differ from the local file"
# a crossed sweep says how to give one selector its own clocks
"$mpsim" sweep --selector=st,hst --clock=jiffies,ktime --runtime=20ms \
    >/dev/null 2>err.txt
grep -q 'hst:clock=LIST) (at 2 of 4 sweep points)$' err.txt && ok ||
    no "the crossed sweep's warning does not name --selector=...,hst:clock=LIST: $(cat err.txt)"

# a sweep of one replication holds the run's latency percentiles
col() { awk -F, -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) n = i; h = 1; next } $1 == "total" || $15 == "total" { print $n }' "$2"; }
"$mpsim" --selector=st --runtime=20ms --format=csv >run.csv
"$mpsim" sweep --selector=st --runtime=20ms >one.csv
for q in p50 p99 p999; do
	r=$(col lat_${q}_us run.csv) w=$(col lat_${q}_us_mean one.csv)
	[ -n "$r" ] && [ "$r" = "$w" ] && ok ||
	    no "sweep lat_${q}_us_mean '$w', the run's lat_${q}_us '$r'"
done

# io-affinity without masks in a sweep: what each path wants, and how
# to give it masks of its own beside another selector
for c in "--selector=ioa|wants a hex CPU mask per path: --path.sdd.path_args=MASK for each)" \
    "--selector=rr,ioa|one path_args cannot serve the other selectors: --selector=...,ioa:path.sdd.path_args=MASK:...)"; do
	st=0; "$mpsim" sweep "${c%%|*}" --runtime=20ms >out.txt 2>err.txt || st=$?
	[ "$st" = 2 ] && [ ! -s out.txt ] && [ "$(wc -l <err.txt)" = 1 ] &&
	    grep -qF -- "${c#*|}" err.txt && ok ||
	    no "sweep ${c%%|*} without masks: status $st, $(cat err.txt)"
done

# merge's unknown options get what every command's get: the close match,
# or the command an option belongs to; status 2, one line, no output file
for c in "--outptu=m.csv|unknown option --outptu (did you mean --output?)" \
    "--iodepth=4|--iodepth belongs to run, compare, sweep"; do
	st=0; "$mpsim" merge --output=m.csv "${c%%|*}" a.csv 2>err.txt || st=$?
	[ "$st" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && [ ! -e m.csv ] &&
	    grep -qF "mpsim: merge: ${c#*|}" err.txt && ok ||
	    no "merge ${c%%|*}: status $st, $(cat err.txt)"
done

# A sweep file is of its inputs: an edited scenario, or a digit edited
# inside a complete point, is refused on resume (status 2, one line
# naming it), not mixed into the results; the file stays as it was.
printf '[multipath]\nselector = st\n[path a]\nservice = exp:100us\n[path b]\nservice = exp:200us\n' >in.ini
"$mpsim" sweep --scenario=in.ini --iodepth=1,2,4 --runtime=20ms --point=0,1 --output=in.csv
cp in.csv in.before
sed -i 's/exp:200us/exp:300us/' in.ini
st=0; "$mpsim" sweep --scenario=in.ini --iodepth=1,2,4 --runtime=20ms --output=in.csv 2>err.txt || st=$?
[ "$st" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q 'scenario in.ini has changed' err.txt &&
    cmp -s in.csv in.before && ok || no "resume after a scenario edit: status $st, $(cat err.txt)"
st=0; "$mpsim" merge --output=in2.csv in.csv 2>err.txt || st=$?
[ "$st" = 2 ] && grep -q 'scenario in.ini has changed' err.txt && [ ! -e in2.csv ] && ok ||
    no "merge after a scenario edit: status $st, $(cat err.txt)"
sed -i 's/exp:300us/exp:200us/' in.ini
sed -i '3s/^\(.*,a,[0-9.]*,0\.\)[0-8]/\19/' in.csv
cmp -s in.csv in.before && no "the test's edit of point 0 did nothing"
cp in.csv in.edited
st=0; "$mpsim" sweep --scenario=in.ini --iodepth=1,2,4 --runtime=20ms --output=in.csv 2>err.txt || st=$?
[ "$st" = 2 ] && grep -q 'point 0 does not match its checksum' err.txt && cmp -s in.csv in.edited &&
    ok || no "resume with an edited point: status $st, $(cat err.txt)"
# the same in JSON lines: the total row's checksum covers its point
"$mpsim" sweep --format=json --scenario=in.ini --iodepth=1,2 --runtime=20ms --point=0 --output=in.json
sed -i '2s/"share_mean": 0\.[0-8]/"share_mean": 0.9/' in.json
st=0; "$mpsim" sweep --format=json --scenario=in.ini --iodepth=1,2 --runtime=20ms --output=in.json 2>err.txt || st=$?
[ "$st" = 2 ] && grep -q 'point 0 does not match its checksum' err.txt && ok ||
    no "JSON resume with an edited point: status $st, $(cat err.txt)"
cp in.before in.csv
"$mpsim" sweep --scenario=in.ini --iodepth=1,2,4 --runtime=20ms --output=in.csv 2>err.txt &&
    [ "$(grep -c ',total,' in.csv)" = 3 ] && ok || no "the unedited file does not resume"
[ "$(cat err.txt)" = "mpsim: warning: in.csv: 2 of 3 points are in it already; running the other 1" ] &&
    ok || no "a resumed sweep says: '$(cat err.txt)'"
# a complete sweep run again says so, and leaves its file alone
cp in.csv in.done
"$mpsim" sweep --scenario=in.ini --iodepth=1,2,4 --runtime=20ms --output=in.csv 2>err.txt &&
    cmp -s in.csv in.done &&
    [ "$(cat err.txt)" = "mpsim: warning: in.csv: all 3 points are in it already; nothing to run (to run them again, move it away or give another --output)" ] &&
    ok || no "a complete sweep run again says: '$(cat err.txt)'"

# A scenario file's mistakes, said at the line that holds them, with the
# word meant: a selector's name, a section header's typo (not the first
# key under it), KEY: VALUE for KEY = VALUE.
printf '[multipath]\nselector = historical_service_time\n[path a]\nservice = exp:100us\n' >t1.ini
printf '[multipath]\nselector = st\n\n[pth a]\nservice = exp:100us\n' >t2.ini
printf '[mulitpath]\nclock = ktime\n[path a]\nservice = exp:100us\n' >t3.ini
printf '[multipath]\nselector = st\n[path a]\nservice: exp:100us\n' >t4.ini
for c in "t1|t1.ini:2: selector: unknown selector 'historical_service_time' (did you mean historical-service-time?)" \
    "t2|t2.ini:4: [pth a] is no section mpsim knows, so it was read as a fio job, which takes no service (did you mean [path a]?)" \
    "t3|t3.ini:1: [mulitpath] is no section mpsim knows, so it was read as a fio job, which takes no clock (did you mean [multipath]?)" \
    "t4|t4.ini:4: unknown option 'service: exp:100us' (options are KEY = VALUE: did you mean 'service = exp:100us'?)"; do
	st=0; "$mpsim" --scenario="${c%%|*}.ini" --runtime=20ms >out.txt 2>err.txt || st=$?
	[ "$st" = 2 ] && [ ! -s out.txt ] && [ "$(cat err.txt)" = "mpsim: ${c#*|}" ] && ok ||
	    no "${c%%|*}.ini: status $st, '$(cat err.txt)', not 'mpsim: ${c#*|}'"
done
# a job whose name is near a section's, and takes what a job takes, runs
printf '[path a]\nservice = exp:100us\n[paths]\nrw = read\nruntime = 20ms\n' >t5.ini
"$mpsim" --scenario=t5.ini >/dev/null && ok || no "a job named [paths] is refused"

# On a terminal a table's columns line up; in a pipe or a file the text
# is as it always is, and the two hold the same cells.
python3 -c '
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        d = os.read(fd, 65536)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
sys.stdout.write(out.decode().replace("\r", ""))
' "$mpsim" compare --runtime=20ms >tty.txt
"$mpsim" compare --runtime=20ms >pipe.txt
# (awk counts bytes: the comparison table has no µ)
widths=$(awk '/^\|/ { print length($0) }' tty.txt | sort -u | wc -l)
[ "$widths" = 1 ] && ok || no "compare on a terminal: table lines of $widths widths"
cells() {
	awk -F'|' '{ s = ""; for (i = 1; i <= NF; i++) { c = $i; gsub(/^ +| +$/, "", c);
		if (c ~ /^:?-+:?$/) gsub(/-+/, "-", c); s = s "|" c } print s }' "$1"
}
[ "$(cells tty.txt)" = "$(cells pipe.txt)" ] && ok ||
    no "compare on a terminal holds other cells than in a pipe"
grep -q '^| path | ST |' pipe.txt && ok || no "compare in a pipe is padded"

# An output that is a symbolic link is written through, as open() would:
# the link stays, the file it names gets the output (also a link to a
# file yet to be made, relative to the link's directory).
mkdir -p links/real
"$mpsim" --runtime=20ms --format=csv >direct.csv
for o in output trace series; do
	: >"links/real/$o.txt"
	ln -s "real/$o.txt" "links/$o"
done
ln -s real/new.csv links/new
"$mpsim" --runtime=20ms --format=csv --output=links/output \
    --trace=links/trace --interval=5ms --series=links/series >/dev/null
"$mpsim" sweep --iodepth=1,2 --runtime=20ms --output=links/new >/dev/null
for o in output trace series new; do
	[ -L "links/$o" ] && ok || no "--$o: the link was replaced"
done
# (the header line echoes the options)
[ "$(tail -n +2 direct.csv)" = "$(tail -n +2 links/real/output.txt)" ] &&
    ok || no "--output through a link differs from stdout"
[ -s links/real/trace.txt ] && [ -s links/real/series.txt ] && ok ||
    no "--trace or --series not written through the link"
"$mpsim" sweep --iodepth=1,2 --runtime=20ms >sweep.csv
cmp -s sweep.csv links/real/new.csv && ok ||
    no "sweep --output through a dangling link: not the sweep"

finish
