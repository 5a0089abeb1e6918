#!/bin/sh
# golden.sh: run the mpsim binary on fixed scenarios and seeds and compare
# its output byte for byte with tests/golden/*.expected; then feed it bad
# input and check each is refused with one line on stderr ("mpsim: ..."),
# exit status 2 and nothing on stdout.
#
# usage: golden.sh MPSIM        (MPSIM_BLESS=1 rewrites the .expected files)
set -eu
LC_ALL=C
export LC_ALL
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(dirname "$0")/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

for args in "$dir"/*.args; do
	name=$(basename "$args" .args)
	# shellcheck disable=SC2046
	if ! (cd "$dir/../.." && eval "\"$mpsim\" $(cat "$args")") \
	    >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		echo "golden $name: exit status $?"; cat "$tmp/$name.err"
		fail=$((fail + 1))
		continue
	fi
	if [ "${MPSIM_BLESS:-}" = 1 ]; then
		cp "$tmp/$name.out" "$dir/$name.expected"
	fi
	if cmp -s "$tmp/$name.out" "$dir/$name.expected"; then
		pass=$((pass + 1))
	else
		echo "golden $name: output differs:"
		diff "$dir/$name.expected" "$tmp/$name.out" | head -20
		fail=$((fail + 1))
	fi
done

# Bad input: one line per case, the arguments as the shell would split them;
# a case still running after a minute has hung (timeout's status 124).
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	st=0
	(cd "$dir" && eval "timeout 60 \"$mpsim\" $line") \
	    >"$tmp/bad.out" 2>"$tmp/bad.err" </dev/null || st=$?
	# its lines (as wc -l counts them) and the first, read by the shell:
	# a process or two per case add up over the cases
	lines=0 first=
	while IFS= read -r l; do
		[ "$lines" -eq 0 ] && first=$l
		lines=$((lines + 1))
	done <"$tmp/bad.err"
	if [ "$st" -ne 2 ] || [ -s "$tmp/bad.out" ] || [ "$lines" -ne 1 ] ||
	    [ "${first#mpsim: }" = "$first" ]; then
		echo "bad input not refused cleanly: mpsim $line"
		echo "  status $st, stdout $(wc -c <"$tmp/bad.out") bytes, stderr $lines lines:"
		sed 's/^/  | /' "$tmp/bad.err" | head -5
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done <"$dir/bad-input.txt"

echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
