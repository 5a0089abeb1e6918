#!/bin/bash
# completion.sh: the bash completion, in a real interactive bash.
# tests/pty-bash.py types each case into `bash -i` in a pseudo-terminal
# (TAB, or TAB TAB for the list) with the completion sourced, and reports
# the command line readline holds afterwards and the words it listed;
# each is compared with what a user must see.  bash splits words at "="
# (COMP_WORDBREAKS) as well as at blanks, which a function called with
# hand-split words would not show.  The cases run in a scratch directory
# that holds ./mpsim (a link to MPSIM) and a few files, and again with
# "=" taken out of COMP_WORDBREAKS, as some users do.
#
# usage: completion.sh MPSIM [COMPLETION-FILE]   (needs python3)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
file=${2:-$top/docs/mpsim.bash-completion}
file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
command -v python3 >/dev/null 2>&1 || { echo "completion: needs python3"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/dir/tests/jobs" "$tmp/dir/results"
ln -s "$mpsim" "$tmp/dir/mpsim"
: >"$tmp/dir/tests/jobs/w.fio"
: >"$tmp/dir/notes.txt"
# bare `mpsim` is found on PATH
export PATH=$tmp/dir:$PATH
pass=0
fail=0

# the commands of mpsim.c's table, the selectors' names and abbreviations
# and the built-in scenarios, as mpsim lists them
cmds=$(sed -n 's/^	{ "\([a-z]*\)", cmd_.*/\1/p' "$top/mpsim.c" | tr '\n' ' ')
[ -n "$cmds" ] || { echo "completion: no commands in mpsim.c"; exit 1; }
sels=$("$mpsim" list selectors | awk '{ printf "%s %s ", $1, $2 }')
scns=$("$mpsim" list scenarios | awk '{ printf "%s ", $1 }')

# The cases, one a line: KIND|KEYS|WANT, KEYS with \t for TAB.
#   line   the command line after KEYS is WANT (a trailing space: done)
#   list=  the words listed are exactly WANT
#   list+  the words listed include every word of WANT
#   list-  the words listed include none of WANT
cases() {
	cat <<EOF
line|./mpsim --selector=h\t|./mpsim --selector=h
list=|./mpsim --selector=h\t\t|historical-service-time hst
line|./mpsim --selector=hi\t|./mpsim --selector=historical-service-time 
line|./mpsim --selector=ioa\t|./mpsim --selector=ioa 
list=|./mpsim --clock=\t\t|jiffies jiffies-aligned ktime
line|./mpsim --clock=k\t|./mpsim --clock=ktime 
line|./mpsim --clock=jiffies-\t|./mpsim --clock=jiffies-aligned 
list=|./mpsim --selector \t\t|$sels
line|./mpsim --selector qu\t|./mpsim --selector queue-length 
list=|./mpsim --clock \t\t|jiffies jiffies-aligned ktime
list+|./mpsim --scenario=\t\t|$scns tests/ results/
line|./mpsim --scenario=hst-bio-mpath-\t|./mpsim --scenario=hst-bio-mpath-nominal 
list=|./mpsim --format=\t\t|table csv json dmsetup
list=|./mpsim --format \t\t|table csv json dmsetup
list=|./mpsim sweep --format=\t\t|csv json
list=|./mpsim timers --wheel=\t\t|classic levels all
list=|./mpsim --expiry=\t\t|jiffies ns
list=|./mpsim --hz=\t\t|100 250 300 1000
line|./mpsim --job=tests/jo\t|./mpsim --job=tests/jobs/
line|./mpsim --job=tests/jobs/\t|./mpsim --job=tests/jobs/w.fio 
line|./mpsim --job tests/jo\t|./mpsim --job tests/jobs/
line|./mpsim --job tests/jobs/\t|./mpsim --job tests/jobs/w.fio 
line|./mpsim --output=no\t|./mpsim --output=notes.txt 
line|./mpsim --lat_hist=res\t|./mpsim --lat_hist=results/
list+|./mpsim --blktrace=\t\t|tests/ results/
list-|./mpsim --blktrace=\t\t|notes.txt mpsim
list=|./mpsim \t\t|$cmds help
line|./mpsim sw\t|./mpsim sweep 
list=|./mpsim list \t\t|selectors scenarios paths options
line|./mpsim --path.\t|./mpsim --path.sd
list=|./mpsim --path.sd\t\t|--path.sdd. --path.sde. --path.sdf. --path.sdg. --path.sdh. --path.sdi. --path.sdj. --path.sdk. --path.sdl. --path.sdm.
line|./mpsim --path.sdj\t|./mpsim --path.sdj.
list=|./mpsim --scenario=alua-failover --path.sd\t\t|--path.sda. --path.sdb. --path.sdc. --path.sdd.
line|./mpsim --path.sdj.ser\t|./mpsim --path.sdj.service=
list+|./mpsim sweep --path.sdd.\t\t|--path.sdd.slots= --path.sdd.service= --path.sdd.path_args= --path.sdd.prio=
list=|./mpsim --path.sdd.request_stats=\t\t|0 1
list=|./mpsim help \t\t|$cmds
line|./mpsim --scen\t|./mpsim --scenario=
list+|./mpsim --select\t\t|--selector= --selector_args= --select_clock=
list+|./mpsim sweep --\t\t|--reps= --list-runs --scenario= --iodepth=
list+|./mpsim timers --\t\t|--wheel= --period=
list=|./mpsim --k\t\t|--kernel= --kthread_poll=
line|./mpsim sweep --selector=st,hi\t|./mpsim sweep --selector=st,historical-service-time 
line|./mpsim compare --columns=st,hst_k\t|./mpsim compare --columns=st,hst_ktime 
line|mpsim --clock=ji\t|mpsim --clock=jiffies
line|mpsim --rw=randw\t|mpsim --rw=randwrite 
EOF
}

# The same with "=" out of COMP_WORDBREAKS: bash keeps --clock=k as one
# word, which readline replaces whole.
cases_noeq() {
	cat <<EOF
line|./mpsim --selector=h\t|./mpsim --selector=h
line|./mpsim --selector=hi\t|./mpsim --selector=historical-service-time 
list=|./mpsim --clock=\t\t|--clock=jiffies --clock=jiffies-aligned --clock=ktime
line|./mpsim --job=tests/jo\t|./mpsim --job=tests/jobs/
list=|./mpsim --selector \t\t|$sels
line|./mpsim --path.sdj.ser\t|./mpsim --path.sdj.service=
EOF
}

# same_words A B: the space-separated words of A and of B are the same
# set (order and repeats aside).
same_words() {
	local -A a=() b=()
	local w
	local -a wa wb
	IFS=' ' read -r -a wa <<<"$1"
	IFS=' ' read -r -a wb <<<"$2"
	for w in "${wa[@]}"; do a[$w]=1; done
	for w in "${wb[@]}"; do b[$w]=1; done
	[ "${#a[@]}" -eq "${#b[@]}" ] || return 1
	for w in "${!a[@]}"; do
		[ -n "${b[$w]+x}" ] || return 1
	done
}

# run CASES SETUP: type the cases into bash, SETUP sourced first, and
# check what it shows.
run() {
	"$1" >"$tmp/cases"
	cut -d'|' -f2 "$tmp/cases" >"$tmp/keys"
	if ! python3 "$top/tests/pty-bash.py" "$tmp/dir" "$2" <"$tmp/keys" >"$tmp/out"; then
		echo "completion: tests/pty-bash.py failed ($1):"
		tail -3 "$tmp/out"
		fail=$((fail + 1))
	fi
	local kind keys want got list w k=0 l
	local -a shown
	mapfile -t shown <"$tmp/out"
	while IFS='|' read -r kind keys want; do
		k=$((k + 1))
		# the case's "line: " and "list:" lines (pty-bash.py prints three
		# lines a case), read without a process per case
		l=${shown[3 * k - 2]-}
		got=
		[[ $l == "line: "* ]] && got=${l#line: }
		l=${shown[3 * k - 1]-}
		list=
		if [[ $l == list:* ]]; then
			list=${l#list:}
			list=${list# }
		fi
		case $kind in
		line)
			if [ "$got" = "$want" ]; then
				pass=$((pass + 1))
			else
				echo "completion: '$keys' gives '$got', not '$want'"
				fail=$((fail + 1))
			fi ;;
		list=)
			if same_words "$list" "$want"; then
				pass=$((pass + 1))
			else
				echo "completion: '$keys' lists '$list', not '$want'"
				fail=$((fail + 1))
			fi ;;
		list+|list-)
			for w in $want; do
				if { [[ " $list " == *" $w "* ]] && [[ $kind == list+ ]]; } ||
				    { [[ " $list " != *" $w "* ]] && [[ $kind == list- ]]; }; then
					pass=$((pass + 1))
				else
					echo "completion: '$keys' lists '$list': '$w' ${kind/list/}"
					fail=$((fail + 1))
				fi
			done ;;
		esac
	done <"$tmp/cases"
}

run cases "$file"
{
	echo ". '$file'"
	echo 'COMP_WORDBREAKS=${COMP_WORDBREAKS//=}'
} >"$tmp/noeq"
run cases_noeq "$tmp/noeq"

echo "completion: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
