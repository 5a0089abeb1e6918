#!/bin/sh
# plots.sh: check that every gnuplot script in plots/ renders from the
# checked-in results/ files, as `make plots` does, but into a temporary
# directory: each PNG must start with the PNG signature and each SVG must
# hold an <svg element, and gnuplot must print nothing (a warning such as
# "no valid points" means a figure lost its data).  Also checks that a
# script refuses an output name that is neither .png nor .svg.
#
# Usage: sh tests/plots.sh   (from any directory; needs gnuplot)
set -eu

cd "$(dirname "$0")/.."
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "plots.sh: needs gnuplot: apt-get install gnuplot-nox" >&2
	exit 1
fi

# input NAME: the results/ file plots/NAME.gp reads (as in the Makefile).
input() {
	case $1 in
	utilization) echo results/compare.csv ;;
	share-vs-depth | latency-vs-depth) echo results/depth.csv ;;
	hz) echo results/hz.csv ;;
	*) echo "plots.sh: no input known for plots/$1.gp" >&2; return 1 ;;
	esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
for gp in plots/*.gp; do
	name=$(basename "$gp" .gp)
	in=$(input "$name")
	for ext in png svg; do
		out=$tmp/$name.$ext
		if ! gnuplot -c "$gp" "$in" "$out" 2>"$tmp/err"; then
			echo "FAIL $gp $in -> $ext: gnuplot failed:" >&2
			cat "$tmp/err" >&2
			fail=1
			continue
		fi
		if [ -s "$tmp/err" ]; then
			echo "FAIL $gp $in -> $ext: gnuplot printed:" >&2
			cat "$tmp/err" >&2
			fail=1
		fi
		if [ ! -s "$out" ]; then
			echo "FAIL $gp: $ext output missing or empty" >&2
			fail=1
		elif [ "$ext" = png ]; then
			magic=$(od -An -tx1 -N8 "$out" | tr -d ' \n')
			if [ "$magic" != 89504e470d0a1a0a ]; then
				echo "FAIL $gp: not a PNG (starts $magic)" >&2
				fail=1
			fi
		elif ! grep -q '<svg' "$out"; then
			echo "FAIL $gp: no <svg element in the SVG output" >&2
			fail=1
		fi
		n=$((n + 1))
	done
done

# An unknown output type is bad input (exit status 2), and writes nothing.
rc=0
gnuplot -c plots/utilization.gp results/compare.csv "$tmp/x.pdf" \
	2>/dev/null || rc=$?
if [ "$rc" != 2 ]; then
	echo "FAIL plots/utilization.gp on an output named .pdf: exit $rc, not 2" >&2
	fail=1
elif [ -e "$tmp/x.pdf" ]; then
	echo "FAIL plots/utilization.gp wrote a .pdf" >&2
	fail=1
fi

[ "$fail" = 0 ] || exit 1
echo "plots.sh: $n figures rendered"
