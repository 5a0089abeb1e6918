#!/bin/bash
# run-suites.sh: the suites of one level of tests/suites (test: make test,
# check: the slow parts make check adds), JOBS of them at a time (2).
# Each suite's output goes to its own log, and the logs are printed in
# the order of tests/suites, each as soon as it and every suite above it
# have ended, with a line saying how it ended and its wall time; stderr
# gets a line as each suite ends, and every 10 s on a terminal (60 s
# elsewhere) one naming the suites running with the last line each
# printed (a long suite's progress), so a long run never sits silent.  Every suite runs
# even when one fails; the exit status is 1 if any failed, and what failed
# is printed again at the end (a CI log shows its tail).  The wall
# and CPU times are left in $BUILD/suites/LEVEL/times ("NAME WALL STATUS
# USER SYSTEM", seconds).
#
# usage: bash tests/run-suites.sh LEVEL   (from the top of the tree;
#        JOBS=N, BUILD and MPSIM from the environment)
set -u
cd "$(dirname "$0")/.."
level=${1:?usage: run-suites.sh LEVEL}
jobs=${JOBS:-2}
BUILD=${BUILD:-build}
MPSIM=${MPSIM:-./mpsim}
export BUILD MPSIM
# a suite that runs make (install.sh, readme.sh's examples) runs it as
# a user would, not as a part of the make that started the suites (whose
# job slots it could not reach)
unset MAKEFLAGS MFLAGS MAKELEVEL
logs=$BUILD/suites/$level

names=() cmds=()
while read -r lv name cmd; do
	case $lv in '' | '#'*) continue ;; esac
	[ "$lv" = "$level" ] || continue
	names+=("$name")
	cmds+=("$cmd")
done <tests/suites
n=${#names[@]}
[ "$n" -gt 0 ] || { echo "run-suites: no suite of level $level in tests/suites" >&2; exit 2; }
rm -rf "$logs"
mkdir -p "$logs"

# python3 behind a version manager's shim (pyenv's is a shell script that
# asks pyenv which interpreter to run) costs about half a second of CPU at
# each start, and the suites start it some forty times (mpsim live, the
# JSON schema, completion, deps).  They get the interpreter the shim
# resolves to here, the same program, under its own name.
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) &&
    [ -x "$py" ] && [ "$(command -v python3)" != "$py" ]; then
	case $logs in /*) bin=$logs/bin ;; *) bin=$PWD/$logs/bin ;; esac
	mkdir -p "$bin"
	ln -s "$py" "$bin/python3"
	PATH=$bin:$PATH
	export PATH
fi

# seconds since t0, one decimal, without a fork (bash 5's EPOCHREALTIME)
now() { local t=${EPOCHREALTIME/[.,]/}; echo $(((t - t0) / 100000)); }
secs() { echo "$(($1 / 10)).$(($1 % 10))"; }
t0=${EPOCHREALTIME/[.,]/}
beat=60
[ -t 2 ] && beat=10

declare -A slot=()	# pid -> index of the suite it runs
started=() took=() status=()
next=0 printed=0 ended=0 failed=0 tick=
running() {
	local p i r= last
	for p in "${!slot[@]}"; do
		i=${slot[$p]}
		last=$(tail -n 1 "$logs/${names[i]}.log" | cut -c 1-80)
		r="$r; ${names[i]}${last:+ (\"$last\")}"
	done
	echo "${r#; }"
}
while [ "$ended" -lt "$n" ]; do
	while [ "$next" -lt "$n" ] && [ "${#slot[@]}" -lt "$jobs" ]; do
		started[next]=$(now)
		(
			TIMEFORMAT='%U %S'
			{ time { (eval "${cmds[next]}") >"$logs/${names[next]}.log" 2>&1 </dev/null; }; } 2>"$logs/${names[next]}.cpu"
		) &
		slot[$!]=$next
		next=$((next + 1))
	done
	if [ -z "$tick" ]; then
		sleep "$beat" &
		tick=$!
	fi
	pid=
	wait -n -p pid
	rc=$?
	if [ -n "$tick" ] && [ "$pid" = "$tick" ]; then
		tick=
		echo "suites: $ended of $n ended, $(secs "$(now)") s; running: $(running)" >&2
		continue
	fi
	[ -n "${slot[$pid]+x}" ] || continue
	i=${slot[$pid]}
	unset "slot[$pid]"
	took[i]=$(($(now) - started[i]))
	status[i]=$rc
	ended=$((ended + 1))
	if [ "$rc" -ne 0 ]; then
		failed=$((failed + 1))
		echo "suites: ${names[i]} FAILED (exit $rc) after $(secs "${took[i]}") s, $ended of $n ended" >&2
	else
		echo "suites: ${names[i]} passed in $(secs "${took[i]}") s, $ended of $n ended" >&2
	fi
	while [ "$printed" -lt "$n" ] && [ -n "${status[printed]:-}" ]; do
		s=${status[printed]}
		echo "== ${names[printed]}: ${cmds[printed]}"
		cat "$logs/${names[printed]}.log"
		echo "== ${names[printed]}: $([ "$s" = 0 ] && echo passed || echo "FAILED (exit $s)"), $(secs "${took[printed]}") s"
		read -r u sy <"$logs/${names[printed]}.cpu" 2>/dev/null || u=0 sy=0
		echo "${names[printed]} $(secs "${took[printed]}") $s ${u:-0} ${sy:-0}" >>"$logs/times"
		printed=$((printed + 1))
	done
done
[ -n "$tick" ] && kill "$tick" 2>/dev/null
total=$(secs "$(now)")
if [ "$failed" -ne 0 ]; then
	# what failed, again at the end, where a CI log's tail shows it:
	# a Criterion suite's failed assertions, any other suite's last lines
	for i in "${!names[@]}"; do
		[ "${status[i]}" = 0 ] && continue
		f=$logs/${names[i]}.log
		echo "== ${names[i]} failed; from its log above:"
		if grep -q '^\[FAIL\]' "$f"; then
			grep -E '^\[(----|FAIL)\]' "$f" | head -n 60
		else
			tail -n 25 "$f"
		fi
	done
	echo "suites ($level): $failed of $n FAILED:$(for i in "${!names[@]}"; do
		[ "${status[i]}" = 0 ] || printf ' %s' "${names[i]}"; done) ($total s)"
	exit 1
fi
echo "suites ($level): all $n passed in $total s"
