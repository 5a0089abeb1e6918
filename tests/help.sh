#!/bin/sh
# help.sh: the reference the program prints from its option tables, and
# the messages that help.  Every option `mpsim list options` prints has a
# line of help there and an entry in the man page, and docs/mpsim.1 is
# what `make man` would write (its OPTIONS section is generated); the
# page names every command, selector, clock and format, passes mandoc's
# lint and points to the installed documentation; each command's --help
# lists its own options; an unknown option or value gets the close match
# or the command it belongs to; a warning met at many sweep points or
# compare columns is said once; list scenarios prints whole sentences.
#
# usage: help.sh MPSIM        (run from the repository's top)
set -eu
suite=help
. "$(dirname "$0")/lib.sh"
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
man=$top/docs/mpsim.1

# ---- list options: every option, a line of help each ----
"$mpsim" list options >"$tmp/list" || no "list options failed"
# the option words: "  --key=ARG ..." or "  -j N ..."
awk '/^  -/ { sub(/[=[].*/, "", $1); print $1 }' "$tmp/list" | sort -u >"$tmp/names"
[ "$(wc -l <"$tmp/names")" -gt 100 ] && ok ||
    no "list options names $(wc -l <"$tmp/names") options, fewer than the tables hold"
# each option's line has its help in the help column (27), after two
# blanks at least, or on the next line there
awk '/^  -/ { if (substr($0, 25, 3) ~ /^  [^ ]$/) next
	getline nx; if (nx !~ /^                          [^ ]/) bad = bad " " $1 }
	END { if (bad) { print bad; exit 1 } }' "$tmp/list" >"$tmp/nohelp" && ok ||
    no "options without a line of help:$(cat "$tmp/nohelp")"
# the walk's form holds every option the walk takes, and no other text
"$mpsim" list options --format=walk | cut -f1 | sed 's/^/--/; s/^--\(.\)$/-\1/' |
    sort -u >"$tmp/walked"
comm -23 "$tmp/walked" "$tmp/names" >"$tmp/unlisted"
[ ! -s "$tmp/unlisted" ] && ok ||
    no "walked but not in list options: $(tr '\n' ' ' <"$tmp/unlisted")"

# ---- the man page ----
"$mpsim" list options --format=man >"$tmp/gen.man" || no "list options --format=man failed"
awk -v gen="$tmp/gen.man" -f "$top/docs/man-options.awk" "$man" >"$tmp/page.1"
cmp -s "$tmp/page.1" "$man" && ok ||
    no "docs/mpsim.1 is stale: its OPTIONS section is not what the tables print (make man)"
# every option, as the page writes it (.It Fl \-key ...): one awk over
# the page says, in order, which it has ("ok") and which it lacks
awk 'FILENAME == ARGV[1] { w = $0; sub(/^--/, "\\-", w); sub(/^-/, "", w)
	o[++n] = $0; want[n] = ".It Fl " w; next }
	{ for (i = 1; i <= n; i++) if (!has[i] && index($0, want[i]) == 1 &&
	      (length($0) == length(want[i]) || substr($0, length(want[i]) + 1, 1) == " "))
		has[i] = 1 }
	END { for (i = 1; i <= n; i++) print (has[i] ? "ok" : "no the man page lacks " o[i]) }' \
    "$tmp/names" "$man" >"$tmp/verdicts"
verdicts() {
	while read -r v msg; do
		if [ "$v" = ok ]; then ok; else no "$msg"; fi
	done <"$tmp/verdicts"
}
verdicts
# every command of mpsim --help, every selector and alias, clock, format,
# and list's words
cmds=$("$mpsim" --help | awk '/^commands:/ { on = 1; next }
	on && /^$/ { exit } on && /^  [a-z]/ { print $1 }')
[ -n "$cmds" ] && ok || no "no commands in mpsim --help"
for c in $cmds; do
	grep -Eq "^\\.It Cm $c( |\$)" "$man" && ok || no "the man page lacks the command $c"
done
for w in $("$mpsim" list selectors | awk '{ print $1, $2 }') \
    jiffies jiffies-aligned ktime table csv json dmsetup \
    selectors scenarios options; do
	grep -Eq "(Cm|\\|) $w( |\$|,)" "$man" && ok || no "the man page lacks $w"
done
grep -q 'Sh SEE ALSO' "$man" && sed -n '/^\.Sh SEE ALSO/,$p' "$man" |
    grep -q '/share/doc/mpsim' && ok || no "SEE ALSO does not name the installed docs"
sed -n '/^\.Sh SEE ALSO/,$p' "$man" | grep -qi 'source tree' &&
    no "SEE ALSO points into the source tree" || ok
if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint -Wwarning "$man" && ok || no "mandoc -Tlint: warnings"
else
	echo "help: mandoc is not installed: the page's lint is not checked"
fi

# ---- each command's --help: its own options, from the tables ----
helps() { # COMMAND OPTION...
	c=$1
	shift
	"$mpsim" "$c" --help >"$tmp/h" 2>"$tmp/h.err" && [ ! -s "$tmp/h.err" ] &&
	    ok || no "$c --help: failed or wrote to stderr"
	for o in "$@"; do
		grep -q -- " $o[=[ ]" "$tmp/h" || grep -q -- " $o\$" "$tmp/h" ||
		    grep -q -- " $o " "$tmp/h" && ok || no "$c --help does not list $o"
	done
}
helps run --scenario --seed --format --iodepth --path.NAME.slots --trace \
    --blktrace --interval --lat_hist --cpus_allowed --help
helps compare --columns --seed --format --interval --series
helps sweep --reps -j --point --list-runs --slurm --format --output
helps merge --output
helps timers --period --wheel --cost-softirq --cost-cascade --mail
helps published --seed --sensitivity
helps live --scenario --repeats --selector-source
# run's help lists every walked option but compare's own
"$mpsim" run --help >"$tmp/run.help"
awk 'FILENAME == ARGV[1] { if ($0 != "--columns") o[++n] = $0; next }
	{ for (i = 1; i <= n; i++) if (!has[i] && (index($0, " " o[i] "=") ||
	      index($0, " " o[i] "[") || index($0, " " o[i] " "))) has[i] = 1 }
	END { for (i = 1; i <= n; i++) print (has[i] ? "ok" : "no run --help does not list " o[i]) }' \
    "$tmp/walked" "$tmp/run.help" >"$tmp/verdicts"
verdicts
# the main help shows a value list the completion reads (--clock=a|b|c)
"$mpsim" --help | grep -q -- '--clock=jiffies|jiffies-aligned|ktime' && ok ||
    no "mpsim --help lacks --clock's values"

# ---- errors that help: one line, exit 2 ----
# refused ARGS... -- MESSAGE: exit 2, one stderr line holding MESSAGE
refused() {
	args=
	while [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	shift
	st=0
	# shellcheck disable=SC2086
	"$mpsim" $args >"$tmp/o" 2>"$tmp/e" || st=$?
	if [ $st -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] &&
	    grep -qF -- "$1" "$tmp/e"; then
		ok
	else
		no "mpsim$args: exit $st, wanted 2 and '$1', got: $(cat "$tmp/e")"
	fi
}
refused --selecter=hst -- "mpsim: unknown option --selecter (did you mean --selector?)"
refused --iodepht=4 -- "(did you mean --iodepth?)"
refused --path.sdd.slotz=2 -- "(did you mean --path.sdd.slots?)"
refused --columns=all -- "--columns belongs to compare"
refused --reps=3 -- "--reps belongs to sweep"
# mpsim's own option after a command: no command owns it
refused run --version=x -- "mpsim: --version takes no command (mpsim --version)"
refused compare --version -- "--version takes no command"
refused sweep --rep=2 --iodepth=1 -- "(did you mean --reps?)"
refused sweep --colums=st -- "(did you mean --columns of compare?)"
refused --selector=hsx -- "unknown selector 'hsx' (did you mean hst?)"
refused --selector=servce-time -- "(did you mean service-time?)"
refused --clock=ktim -- "unknown clock 'ktim' (did you mean ktime?)"
refused --format=jsn -- "(did you mean json?)"
refused --selector=ioa -- "io-affinity takes a cpumask per path"
refused timers --perod=1s -- "timers: unknown option '--perod' (did you mean --period?)"
refused published --sensitivty -- "(did you mean --sensitivity?)"
# nothing close: no guess
refused --zzqqxx=1 -- "unknown option --zzqqxx"
grep -q 'did you mean' "$tmp/e" && no "--zzqqxx: a guess for a word like no option" || ok
printf '[multipath]\nselectr = st\n' >"$tmp/typo.ini"
refused --scenario="$tmp/typo.ini" -- "unknown option 'selectr' (did you mean selector?)"

# ---- one warning per cause ----
"$mpsim" sweep --iodepth=1,2,4 --selector=st --clock=jiffies,ktime \
    --number_ios=64 -j 1 >/dev/null 2>"$tmp/sw.err" || true
n=$(grep -c -- '--clock.* changes nothing' "$tmp/sw.err" || true)
[ "$n" -eq 1 ] && ok || no "sweep: the --clock warning $n times, wanted once"
grep -q -- '--clock changes nothing.*(at 6 of 6 sweep points)$' "$tmp/sw.err" && ok ||
    no "sweep: the warning does not say at how many points: $(head -1 "$tmp/sw.err")"
"$mpsim" compare --fail='sdd at 100s' --runtime=100ms >/dev/null 2>"$tmp/cmp.err" || true
n=$(grep -c 'never ran' "$tmp/cmp.err" || true)
[ "$n" -eq 1 ] && ok || no "compare: the late-event warning $n times, wanted once"
grep -q 'never ran.*(at 5 of 5 columns)$' "$tmp/cmp.err" && ok ||
    no "compare: the warning does not say at how many columns"
"$mpsim" compare --columns=st --fail='sdd at 100s' --runtime=100ms >/dev/null 2>"$tmp/cmp1.err" || true
grep -q 'never ran.*(column ST)$' "$tmp/cmp1.err" && ok ||
    no "compare: one column's warning does not name it"

# ---- list scenarios: each first sentence whole ----
"$mpsim" list scenarios >"$tmp/scn" || no "list scenarios failed"
for f in "$top"/workloads/scenarios/*.ini; do
	name=$(basename "$f" .ini)
	# the opening comment up to its first full stop before a blank
	want=$(awk '!/^[;#]/ { exit } { sub(/^[;#] ?/, "") } /^ *$/ { exit }
		{ s = s (s ? " " : "") $0 } END { print s }' "$f" |
	    sed "s/^$name: //; s/\\. .*/./")
	got=$(awk -v n="$name" '$1 == n { sub(/^[^ ]+ +/, ""); print }' "$tmp/scn")
	[ "$got" = "$want" ] && ok || no "list scenarios: $name: '$got', wanted '$want'"
done

finish
