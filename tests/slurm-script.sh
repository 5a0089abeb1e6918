#!/bin/sh
# slurm-script.sh: the batch script of `mpsim sweep --slurm`, driven by a
# stand-in for sbatch and squeue that runs each job at once, in order, so
# that its logic (the tasks' points, what a second submit sends, the
# resume of a task's file, the merge) is checked by `make test` on any
# machine.  A real cluster runs it in `make slurm-check`
# (tests/slurm-check.sh).
#
# usage: slurm-script.sh MPSIM       (run from the repository's top)
set -eu
LC_ALL=C
export LC_ALL
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

check() {
	if eval "$2"; then
		pass=$((pass + 1))
	else
		echo "slurm-script: $1"
		fail=$((fail + 1))
	fi
}

# sbatch: a job id per call; an array's tasks run one after the other
# (FAKE_CANCEL names a task that never runs, as if cancelled); every
# submission is logged in $FAKE/submitted.
mkdir "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'EOF'
#!/bin/sh
set -eu
array= out=slurm-%j.out
while [ $# -gt 0 ]; do
	case $1 in
	--array=*) array=${1#--array=} ;;
	--output=*) out=${1#--output=} ;;
	--*) ;;
	*) break ;;
	esac
	shift
done
id=$(($(cat "$FAKE/id" 2>/dev/null || echo 0) + 1))
echo "$id" >"$FAKE/id"
echo "array=$array $*" >>"$FAKE/submitted"
if [ -z "$array" ]; then
	SLURM_JOB_ID=$id sh "$@" >"$(echo "$out" | sed "s/%j/$id/")" 2>&1 ||
		echo "$id $?" >>"$FAKE/failed"
else
	for item in $(echo "$array" | tr , ' '); do
		i=${item%-*}
		while [ "$i" -le "${item#*-}" ]; do
			if [ "$i" != "${FAKE_CANCEL:-}" ]; then
				SLURM_JOB_ID=$id SLURM_ARRAY_TASK_ID=$i sh "$@" \
				    >"$(echo "$out" | sed "s/%A/$id/; s/%a/$i/")" 2>&1 ||
					echo "${id}_$i $?" >>"$FAKE/failed"
			fi
			i=$((i + 1))
		done
	done
fi
echo "$id;fake"
EOF
printf '#!/bin/sh\n' >"$tmp/bin/squeue"
chmod +x "$tmp/bin/sbatch" "$tmp/bin/squeue"
PATH=$tmp/bin:$PATH
FAKE=$tmp
MPSIM=$mpsim
export PATH FAKE MPSIM

# 8 points in 3 tasks: 0,3,6 (written 0..6+3) / 1,4,7 / 2,5
sweep="--iodepth=1,2,4,8 --selector=st,hst --reps=2 --runtime=100ms"
cd "$tmp"
# shellcheck disable=SC2086
"$mpsim" sweep $sweep -j 2 --output=local.csv
# shellcheck disable=SC2086
"$mpsim" sweep $sweep --output=out/s.csv --slurm=3 >s.sh
check "task points" 'grep -q "^	0) echo 0..6+3 ;;$" s.sh && grep -q "^	2) echo 2,5 ;;$" s.sh'

# task 1 cancelled before it starts: the merge runs and fails
FAKE_CANCEL=1 sh s.sh >submit.1
check "the first submit sends every task" \
	'grep -q "^array=0-2 s.sh task$" submitted && grep -q "tasks 0-2 of 0-2" submit.1'
check "the merge runs after the array" 'grep -q "^array= .*s.sh merge$" submitted'
check "a merge with missing points fails" 'grep -q " 1$" failed'
check "the merge names the missing points" \
	'grep -q "holds 5 of 8 points (missing 1, 4, 7)" out/s.points/slurm-merge-*.out'

# task 1 killed part-way: point 1 done, point 4 torn
# shellcheck disable=SC2086
"$mpsim" sweep $sweep --point=1,4 -j 1 --output=part.csv
head -n 14 part.csv >out/s.points/task-1.csv
check "a torn point" '[ "$(wc -l <part.csv)" -gt 14 ]'
: >submitted
rm -f failed
sh s.sh >submit.2
check "the second submit sends task 1 alone" \
	'grep -q "^array=1 s.sh task$" submitted && grep -q "tasks 1 of 0-2" submit.2'
check "nothing failed the second time" '[ ! -e failed ]'
check "the merged file is the local sweep's" 'cmp -s local.csv out/s.csv'

# a .done of another split of the points does not count
echo 0,2 >out/s.points/task-2.done
: >submitted
sh s.sh >submit.3
check "a stale .done is rerun" 'grep -q "^array=2 s.sh task$" submitted'
: >submitted
sh s.sh >submit.4
check "with every task done only the merge is sent" \
	'grep -q "every task is done" submit.4 && [ "$(wc -l <submitted)" = 1 ]'
check "under sbatch the script refuses to submit" \
	'! SLURM_JOB_ID=9 sh s.sh 2>/dev/null'

# JSON lines, one point per task (the default), nothing failing
# shellcheck disable=SC2086
"$mpsim" sweep $sweep --format=json -j 2 --output=local.json
# shellcheck disable=SC2086
"$mpsim" sweep $sweep --format=json --output=out/j.json --slurm >j.sh
: >submitted
sh j.sh >submit.5
check "one task per point by default" 'grep -q "tasks 0-7 of 0-7" submit.5'
check "JSON lines merge into the local sweep's file" 'cmp -s local.json out/j.json'

echo "slurm-script: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
