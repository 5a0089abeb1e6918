#!/bin/sh
# options.sh: the option walk.  Every option the command line takes, as
# the program itself lists them (mpsim list options --format=walk: its option tables,
# so a new option is walked as soon as it exists), is given to run,
# compare and sweep with the value the table names, on top of the options
# that value needs, and then alone.  Each must change the figures, draw a warning, or be
# refused (exit status 2); accepted with none of these is a silent
# surprise, and fails.  Options the table marks "-" change nothing by
# design (there are no files to name, say) and must be documented so in
# the documentation (README.md or docs/).
#
# The walk has two passes: with the options the value needs (make test),
# and alone (make check).  Each command's run without the option walked
# is made once for the options it is given and kept (same options, same
# bytes), not once per option walked.  Whether a run changed the figures
# or warned is judged at the end, for every run at once, by one awk
# (judge): a process or three per run to compare files cost more than
# the runs themselves.
#
# usage: options.sh MPSIM [with|alone]   (run from the repository's top;
#        both passes by default)
set -eu
LC_ALL=C
export LC_ALL
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
passes=${2:-with alone}
case $passes in
with|alone|"with alone") ;;
*) echo "usage: options.sh MPSIM [with|alone]" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --selector-source's plugins are built in the test's own cache
XDG_CACHE_HOME=$tmp
export XDG_CACHE_HOME
# short runs; every walked value differs from these
base="--runtime=100ms --ramp_time=10ms"
pass=0
fail=0
TAB=$(printf '\t')

# run TAG CMD WITH [OPTION]: leaves stdout, stderr and the exit status
# in $tmp/TAG.raw, .err and .st, the status in $st too
invoke() {
	tag=$1 cmd=$2 with=$3
	shift 3
	st=0
	# shellcheck disable=SC2086
	eval "set -- $base $with \"\$@\""
	# compare's table prints IOPS as fio does (59.7k), too coarse to show
	# what an option changes: its CSV has every figure to the last digit
	# (a --format walked later on the line still wins)
	[ "$cmd" != compare ] || set -- --format=csv "$@"
	"$mpsim" "$cmd" "$@" >"$tmp/$tag.raw" 2>"$tmp/$tag.err" || st=$?
	echo "$st" >"$tmp/$tag.st"
}

# A run accepted is judged later: "with" (first pass) or "alone", the
# command, the run without the option ($b), the run with it, the option
# as walked, as the documentation names it, and the words of a failure.
# The judge passes it when its figures differ from those of the run
# without the option (figures: the output without the lines that only
# echo the options, a table's first line, a sweep's comment and option
# columns), or when it warned and its stderr differs; an "alone" run
# also when docs/outputs.md lists the option as a no-op alone.
: >"$tmp/judge"
runs=0
later() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$b" "$tmp/$3" "$4" "$5" "$6" >>"$tmp/judge"
}
judge() {
	awk -F'\t' -v alone="$tmp/alone" '
	function slurp(f,   l, s, r) { s = ""
		while ((r = (getline l < f)) > 0) s = s l "\n"
		close(f); return s }
	function figures(cmd, f,   l, s, n, p, i, k, x, r, t) { s = ""; n = 0; p = 0
		while ((r = (getline l < f)) > 0) {
			if (cmd != "sweep") { if (n++) s = s l "\n"; continue }
			if (l ~ /^#/) continue
			k = split(l, x, ",")
			if (!n) { for (i = 1; i <= k; i++) if (x[i] == "path") p = i; n = 1 }
			t = ""; for (i = p; i <= k; i++) t = t (i ? x[i] : l) ","
			s = s t "\n"
		}
		close(f); return s }
	BEGIN { while ((getline l < alone) > 0) nop = nop l "\n" }
	{ kind = $1; cmd = $2; b = $3; t = $4
	  if (!((cmd, b) in fig)) fig[cmd, b] = figures(cmd, b ".raw")
	  if (figures(cmd, t ".raw") != fig[cmd, b]) { pass++; next }
	  e = slurp(t ".err")
	  if (e ~ /mpsim: warning/ && e != slurp(b ".err")) { pass++; next }
	  if (kind == "alone" && index(nop, "`--" $6 "`")) { pass++; next }
	  print $7; fail++ }
	END { print "judged", pass + 0, fail + 0 }' "$tmp/judge"
}

# base CMD WITH: the run of CMD with WITH and without the option walked,
# made once; $b names its files ($b.out, $b.err), $bst is its exit
# status.  base/keys holds "CMD WITH" of each run made, its line number
# naming the run's files (read with the shell's own read: a walk of a few
# hundred options must not start a process per lookup).
mkdir "$tmp/base"
: >"$tmp/base/keys"
base() {
	k="$1 $2" n=0 b=
	while IFS= read -r line; do
		n=$((n + 1))
		if [ "$line" = "$k" ]; then b=base/$n; break; fi
	done <"$tmp/base/keys"
	if [ -z "$b" ]; then
		printf '%s\n' "$k" >>"$tmp/base/keys"
		b=base/$((n + 1))
		invoke "$b" "$1" "$2"
	fi
	read -r bst <"$tmp/$b.st"
	b=$tmp/$b
}

"$mpsim" list options --format=walk >"$tmp/options"
# docs/outputs.md's list of options that change nothing given alone
# (its bullet list: the paragraph above it names the options that warn)
awk '/^### Options that change nothing alone/ { on = 1; next }
	on && /^##/ { on = 0 } on && /^- / { list = 1 } on && list' \
	docs/outputs.md >"$tmp/alone"
[ -s "$tmp/options" ] || { echo "options: mpsim list options is empty"; exit 1; }
case $passes in
*with*) first="run compare sweep" ;;
*) first= ;;
esac
total=$(wc -l <"$tmp/options")
i=0
while IFS="$TAB" read -r name val with; do
	# progress on stderr, every tenth of the options
	i=$((i + 1))
	[ $((i * 10 / total)) = $(((i - 1) * 10 / total)) ] ||
		echo "options ($passes): $i/$total options" >&2
	orig=$name	# as the documentation names it (--path.NAME.KEY)
	case $name in *NAME*) name=${name%%NAME*}sdd${name#*NAME} ;; esac
	if [ "$val" = "-" ]; then
		[ -n "$first" ] || continue
		if grep -q "\`$name\`" README.md docs/*.md; then
			pass=$((pass + 1))
		else
			echo "options: --$name changes nothing by design, but the documentation does not say so"
			fail=$((fail + 1))
		fi
		continue
	fi
	refused=0
	for cmd in $first; do
		base "$cmd" "$with"
		# an option the value needs may be refused by this command
		# (compare --selector): then so must the value be
		if [ "$bst" = 2 ] && [ -n "$with" ]; then
			invoke try "$cmd" "$with" "--$name=$val"
			if [ "$st" = 2 ]; then
				pass=$((pass + 1))
				refused=$((refused + 1))
			else
				echo "options: $cmd $with --$name=$val: accepted though $with is not"
				fail=$((fail + 1))
			fi
			continue
		fi
		if [ "$bst" != 0 ]; then
			echo "options: $cmd $base $with: exit status $bst without --$name"
			sed 's/^/  | /' "$b.err" | head -3
			fail=$((fail + 1))
			continue
		fi
		runs=$((runs + 1))
		invoke "try$runs" "$cmd" "$with" "--$name=$val"
		if [ "$st" = 2 ] && [ ! -s "$tmp/try$runs.raw" ]; then
			refused=$((refused + 1))
			pass=$((pass + 1))
		elif [ "$st" != 0 ]; then
			echo "options: $cmd --$name=$val: exit status $st"
			fail=$((fail + 1))
		else
			later with "$cmd" "try$runs" "--$name=$val" "$orig" \
			    "options: $cmd --$name=$val (with: ${with:-nothing}) is accepted, changes nothing and warns of nothing"
		fi
	done
	# alone on the built-in scenario: the options that make a value
	# matter must not be needed for it to be noticed.  Changed, warned,
	# refused, or listed in docs/outputs.md's "Options that change
	# nothing alone" with the reason.
	if [ -n "$with" ] && [ "$passes" != with ]; then
		for cmd in run compare sweep; do
			base "$cmd" ""
			runs=$((runs + 1))
			invoke "try$runs" "$cmd" "" "--$name=$val"
			if [ "$st" = 2 ] && [ ! -s "$tmp/try$runs.raw" ]; then
				pass=$((pass + 1))
			elif [ "$st" != 0 ] && grep -q -- "\`--$orig\`" "$tmp/alone"; then
				pass=$((pass + 1))
			elif [ "$st" != 0 ]; then
				echo "options: $cmd --$name=$val alone is accepted, changes nothing and warns of nothing (and docs/outputs.md does not list it as a no-op alone)"
				fail=$((fail + 1))
			else
				later alone "$cmd" "try$runs" "--$name=$val" "$orig" \
				    "options: $cmd --$name=$val alone is accepted, changes nothing and warns of nothing (and docs/outputs.md does not list it as a no-op alone)"
			fi
		done
	fi
	# refused by every command: the table's value is wrong, not the option
	if [ "$refused" = 3 ] && [ "$name" != columns ] && [ "$passes" != alone ]; then
		echo "options: --$name=$val is refused by every command; the walk's value is bad"
		fail=$((fail + 1))
	fi
done <"$tmp/options"
judge >"$tmp/judged"
while IFS= read -r line; do
	case $line in
	"judged "*)
		set -- $line
		pass=$((pass + $2))
		fail=$((fail + $3)) ;;
	*) echo "$line" ;;
	esac
done <"$tmp/judged"
echo "options: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
