#!/bin/bash
# completion.sh: source the bash completion and complete commands,
# options, selectors, built-in scenarios and option values with it.
#
# usage: completion.sh MPSIM [COMPLETION-FILE]
set -eu
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
file=${2:-$(dirname "$0")/../docs/mpsim.bash-completion}
# shellcheck disable=SC1090
. "$file"
pass=0
fail=0

# complete LINE: COMPREPLY for the last word of LINE (a space at the end
# starts an empty word)
complete_line() {
	read -r -a COMP_WORDS <<<"$1"
	[[ $1 == *' ' ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_mpsim "$mpsim" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" || true
}

# expect LINE WORD...: each WORD is among the completions of LINE
expect() {
	local line=$1 w
	shift
	complete_line "$line"
	for w in "$@"; do
		if printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$w"; then
			pass=$((pass + 1))
		else
			echo "completion: '$line' does not offer '$w' (got: ${COMPREPLY[*]:0:12})"
			fail=$((fail + 1))
		fi
	done
}

# the commands of mpsim.c's table
cmds=$(sed -n 's/^	{ "\([a-z]*\)", cmd_.*/\1/p' "$(dirname "$0")/../mpsim.c")
[ -n "$cmds" ] || { echo "completion: no commands in mpsim.c"; exit 1; }
# shellcheck disable=SC2086
expect 'mpsim ' $cmds
expect 'mpsim sw' sweep
expect 'mpsim list ' selectors scenarios options
# shellcheck disable=SC2086
expect 'mpsim help ' $cmds
expect 'mpsim --sel' --selector= --selector_args= --select_clock=
expect 'mpsim --' --scenario= --columns= --version --name= --output-format=
expect 'mpsim sweep --' --reps= --list-runs
expect 'mpsim timers --' --wheel= --period=
expect 'mpsim compare --col' --columns=
for s in $("$mpsim" list scenarios | cut -d' ' -f1); do
	expect 'mpsim --scenario=' "--scenario=$s"
done
for s in $("$mpsim" list selectors | awk '{ print $1; print $2 }'); do
	expect 'mpsim --selector=' "--selector=$s"
done
expect 'mpsim --selector=hi' --selector=historical-service-time
expect 'mpsim --clock=' --clock=jiffies --clock=jiffies-aligned --clock=ktime
expect 'mpsim sweep --hz=' --hz=100 --hz=250 --hz=300 --hz=1000

echo "completion: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
