#!/bin/sh
# layers.sh: the folders' dependencies run one way, from the commands down
# to the engine (docs/design.md): no engine, reader, workload, selector or
# timer-wheel file includes a command's header (cli/), and each lower
# layer includes only what lies below it.  Every quoted #include is read
# as the root-relative path the Makefile's -I. resolves.
set -eu
cd "$(dirname "$0")/.."

fail=0 checked=0
# folder: the folders its files may not include
rules='sim:cli
input:cli
workloads:cli
selectors:cli input workloads
wheels:cli input workloads selectors'

echo "$rules" | while IFS=: read -r dir banned; do
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -e "$f" ] || continue
		for b in $banned; do
			if grep -n "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$b/" "$f"; then
				echo "layers: $f includes a header of $b/, which lies above $dir/"
				echo x >>"${TMPDIR:-/tmp}/layers.$$"
			fi
		done
	done
done
[ -f "${TMPDIR:-/tmp}/layers.$$" ] && fail=$(wc -l <"${TMPDIR:-/tmp}/layers.$$")
rm -f "${TMPDIR:-/tmp}/layers.$$"
checked=$(ls sim/*.[ch] input/*.[ch] workloads/*.[ch] selectors/*.[ch] wheels/*.[ch] | wc -l)
# a folder that disappears would pass silently: each must hold files
for d in sim cli input workloads selectors wheels; do
	ls "$d"/*.c >/dev/null 2>&1 || { echo "layers: no $d/*.c"; exit 1; }
done
if [ "$fail" -ne 0 ]; then
	echo "layers: $fail includes against the direction of the layers"
	exit 1
fi
echo "layers: $checked files below cli/ include nothing above them"
