#!/bin/sh
# kernel-check.sh: `make kernel-check`.  Takes the path selectors of
# Debian's linux-source-6.1 (installing the package if it is missing) and
#  1. runs each beside mpsim's selector of the same name on a million
#     random operations (build/kernel-check, tests/kernel-check.c);
#  2. runs each with --selector-source on tests/kernel-check.ini (bio and
#     request mode) and in a compare column, and requires the output of
#     the built-in selector, byte for byte but for the line that echoes
#     the options.
# The files are extracted once into a scratch directory under build/ and the
# plugins built in a temporary cache, removed at the end: nothing of the
# kernel's source enters the repository.
# Usage: kernel-check.sh MPSIM CHECKER SCRATCH_DIR
set -eu
MPSIM=$1 CHECK=$2 SCRATCH=$3
sh "$(dirname "$0")/kernel-src.sh" "$SCRATCH"
set -- "$SCRATCH"/dm-ps-*.c
[ $# -eq 5 ] || { echo "kernel-check: expected 5 dm-ps-*.c, found $#" >&2; exit 1; }

XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT

"$CHECK" --ops=1000000 "$@"

out=$XDG_CACHE_HOME/out
scn=tests/kernel-check.ini
for f in "$@"; do
	name=$(basename "$f" .c)
	name=${name#dm-ps-}
	extra=""
	if [ "$name" = io-affinity ]; then
		# sda CPUs 0-1, sdb 2-4, sdc 5 and 7, sdd 6 (and 7, taken)
		extra="--path.sda.path_args=3 --path.sdb.path_args=1c
		       --path.sdc.path_args=a0 --path.sdd.path_args=c0"
	fi
	for mode in bio request; do
		# shellcheck disable=SC2086
		"$MPSIM" run --scenario=$scn --mode=$mode --selector=$name \
			$extra --format=json > "$out.builtin"
		# shellcheck disable=SC2086
		"$MPSIM" run --scenario=$scn --mode=$mode --selector-source="$f" \
			$extra --format=json > "$out.source"
		tail -n +2 "$out.builtin" > "$out.b"
		tail -n +2 "$out.source" > "$out.s"
		if ! cmp -s "$out.b" "$out.s"; then
			echo "kernel-check: $f: --selector-source differs from" \
			     "--selector=$name ($mode mode):" >&2
			diff "$out.b" "$out.s" >&2 || true
			exit 1
		fi
		[ -s "$out.b" ] || { echo "kernel-check: no output" >&2; exit 1; }
	done
	echo "kernel-check: $f: run output identical to the built-in $name (bio, request)"
done

# a compare column of the file beside the built-in column of its selector
"$MPSIM" compare --scenario=$scn --selector-source="$SCRATCH/dm-ps-service-time.c" \
	--columns=st,source --format=csv | tail -n +3 > "$out.cmp"
awk -F, '{ v[$1] = v[$1] " " $5 } END { for (p in v) { split(v[p], a, " ");
	if (a[1] != a[2]) { print "kernel-check: compare column differs on " p; exit 1 } } }' "$out.cmp"
echo "kernel-check: compare: the service-time source column equals the st column"

# docs/selectors.md's worked example: HST as 5.8-5.17 had it, select_path reading
# sched_clock(), made from the 6.1 file by that example's sed, is mpsim's HST
# with select_clock=sched_clock (a sched_clock 50 ms ahead of ktime).
old=$XDG_CACHE_HOME/hst-5.17.c
sed 's/u64 time_now = ktime_get_ns();/u64 time_now = sched_clock();/' \
	"$SCRATCH/dm-ps-historical-service-time.c" > "$old"
! cmp -s "$old" "$SCRATCH/dm-ps-historical-service-time.c" ||
	{ echo "kernel-check: the sed of docs/selectors.md changed nothing" >&2; exit 1; }
"$CHECK" --ops=1000000 --select_clock=sched_clock "$old"
"$MPSIM" run --scenario=$scn --selector=hst --select_clock=sched_clock \
	--sched_clock_offset=50ms --format=json | tail -n +2 > "$out.b"
"$MPSIM" run --scenario=$scn --selector-source="$old" \
	--sched_clock_offset=50ms --format=json | tail -n +2 > "$out.s"
cmp -s "$out.b" "$out.s" || { echo "kernel-check: $old differs from" \
	"--selector=hst --select_clock=sched_clock" >&2; exit 1; }
echo "kernel-check: $old: run output identical to the built-in HST with select_clock=sched_clock"
