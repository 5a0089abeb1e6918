#!/bin/sh
# plots.sh: the gnuplot scripts in plots/.
# - Every figure of plots/figures renders from the checked-in results/,
#   as `make plots` does, into a temporary directory: each PNG starts
#   with the PNG signature, each SVG holds an <svg element, and gnuplot
#   prints nothing (a warning such as "no valid points" means a figure
#   lost its data).  Every script is in plots/figures.
# - The x axis follows the data: a sweep over --iodepth='32..512*2' has
#   a tic at 256 and 512, a two-HZ sweep at 100 and 1000.  The latency
#   CDF of a run mixing reads and writes has a panel per direction.
# - A file a script cannot draw (another script's input, or a sweep that
#   varies an option the figure does not split on, such as a depth sweep
#   at two HZ) is refused with one line on stderr and exit status 1, and
#   no output file; an output name that is neither .png nor .svg with
#   exit status 2.
#
# make test renders each figure of plots/figures as SVG only, and the
# first as PNG too (the PNG terminal); make check renders them all as PNG
# (the two formats draw from the same script and data).
#
# Usage: sh tests/plots.sh [svg|png]   (from any directory; needs gnuplot
# and a built ./mpsim for the sweeps; svg: all but the PNGs after the
# first, png: the PNGs alone; both by default)
set -eu
formats=${1:-svg png}
case $formats in
svg|png|"svg png") ;;
*) echo "usage: plots.sh [svg|png]" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "plots.sh: needs gnuplot: apt-get install gnuplot-nox" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0

# draw SCRIPT INPUT OUTPUT: render, and check the file and the silence.
draw() {
	if ! gnuplot -c "plots/$1.gp" "$2" "$3" 2>"$tmp/err"; then
		echo "FAIL plots/$1.gp $2 -> $3: gnuplot failed:" >&2
		cat "$tmp/err" >&2
		fail=1
		return
	fi
	if [ -s "$tmp/err" ]; then
		echo "FAIL plots/$1.gp $2 -> $3: gnuplot printed:" >&2
		cat "$tmp/err" >&2
		fail=1
	fi
	case $3 in
	*.png)
		magic=$(od -An -tx1 -N8 "$3" | tr -d ' \n')
		if [ "$magic" != 89504e470d0a1a0a ]; then
			echo "FAIL plots/$1.gp: $3 is not a PNG (starts $magic)" >&2
			fail=1
		fi ;;
	*.svg)
		if ! grep -q '<svg' "$3"; then
			echo "FAIL plots/$1.gp: no <svg element in $3" >&2
			fail=1
		fi ;;
	esac
	n=$((n + 1))
}

# refuse SCRIPT INPUT WHY: exit status 1, one line naming the script,
# matching WHY, and no output.
refuse() {
	rc=0
	gnuplot -c "plots/$1.gp" "$2" "$tmp/refused.png" 2>"$tmp/err" || rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" != 1 ] || [ "$lines" != 1 ] ||
	    ! grep -q "^plots/$1.gp: .*$3" "$tmp/err"; then
		echo "FAIL plots/$1.gp on $2: exit $rc and $lines lines, not" \
		     "exit 1 and one line saying '$3':" >&2
		head -5 "$tmp/err" >&2
		fail=1
	fi
	if [ -e "$tmp/refused.png" ]; then
		echo "FAIL plots/$1.gp on $2 wrote an output file" >&2
		rm -f "$tmp/refused.png"
		fail=1
	fi
}

# tics SVG VALUE...: the x axis of SVG is labelled with every VALUE.
tics() {
	f=$1
	shift
	for v in "$@"; do
		if ! grep -q ">$v<" "$f"; then
			echo "FAIL $f: no axis label $v (x range not from the data?)" >&2
			fail=1
		fi
	done
}

# Every figure, from the committed results.
grep -v '^#' plots/figures >"$tmp/figures"
first=1
while read -r name gp in; do
	for ext in png svg; do
		case " $formats " in
		*" $ext "*) draw "$gp" "results/$in" "$tmp/$name.$ext" ;;
		*) [ "$ext$first" = png1 ] && draw "$gp" "results/$in" "$tmp/$name.$ext" ;;
		esac
	done
	first=
done <"$tmp/figures"
if [ "$formats" = png ]; then
	[ "$fail" = 0 ] || exit 1
	echo "plots.sh: $n figures rendered as PNG"
	exit 0
fi
for gp in plots/*.gp; do
	if ! awk -v s="$(basename "$gp" .gp)" '$2 == s { f = 1 } END { exit !f }' \
	    "$tmp/figures"; then
		echo "FAIL $gp draws no figure of plots/figures" >&2
		fail=1
	fi
done

# Sweeps the committed results do not hold.
sweep() {
	out=$1
	shift
	./mpsim sweep --ramp_time=0 --runtime=30ms --reps=2 -j 1 \
	    --output="$out" "$@" 2>"$tmp/err" || {
		echo "FAIL ./mpsim sweep $*:" >&2
		cat "$tmp/err" >&2
		exit 1
	}
}
sweep "$tmp/wide.csv" --iodepth='32..512*2' --selector=st,ql
sweep "$tmp/depth-2hz.csv" --iodepth=8,64 --hz=100,1000 --selector=hst
sweep "$tmp/2hz.csv" --hz=100,1000 --selector=hst --clock=jiffies,ktime

draw share-vs-depth "$tmp/wide.csv" "$tmp/wide-share.svg"
tics "$tmp/wide-share.svg" 32 64 128 256 512
draw latency-vs-depth "$tmp/wide.csv" "$tmp/wide-latency.svg"
tics "$tmp/wide-latency.svg" 32 64 128 256 512
draw utilization-vs-depth "$tmp/wide.csv" "$tmp/wide-util.svg"
tics "$tmp/wide-util.svg" 32 64 128 256 512
draw utilization-spread "$tmp/wide.csv" "$tmp/wide-spread.svg"
tics "$tmp/wide-spread.svg" 32 64 128 256 512
draw hz "$tmp/2hz.csv" "$tmp/2hz.svg"
tics "$tmp/2hz.svg" 100 1000

# A run that mixes reads and writes: a CDF panel per path and direction.
./mpsim compare --columns=st,hst_ktime --rw=randrw --ramp_time=0 \
    --runtime=50ms --lat_hist="$tmp/mixed.csv" >/dev/null 2>&1
draw latency-cdf "$tmp/mixed.csv" "$tmp/mixed.svg"
for t in "path sdd, reads" "path sdd, writes"; do
	if ! grep -q ">$t<" "$tmp/mixed.svg"; then
		echo "FAIL plots/latency-cdf.gp: no panel '$t' for a mixed run" >&2
		fail=1
	fi
done

# Files a script cannot draw.
refuse share-vs-depth "$tmp/depth-2hz.csv" "varies hz (100 and 1000)"
refuse latency-vs-depth "$tmp/depth-2hz.csv" "varies hz (100 and 1000)"
refuse utilization-vs-depth "$tmp/depth-2hz.csv" "varies hz (100 and 1000)"
refuse utilization-spread "$tmp/depth-2hz.csv" "varies hz (100 and 1000)"
refuse utilization-vs-depth results/compare.csv "is not a sweep over iodepth"
refuse utilization-spread results/compare.csv "is not a sweep over iodepth"
refuse hz "$tmp/depth-2hz.csv" "varies iodepth (8 and 64)"
refuse share-vs-depth results/compare.csv "is not a sweep over iodepth"
refuse hz results/depth.csv "varies iodepth (1 and 2)"
refuse hz results/compare.csv "is not a sweep over hz"
for gp in share-per-path utilization latency-cdf timeline; do
	refuse "$gp" results/depth.csv "is not"
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
echo "plots.sh: $n figures rendered, bad input refused"
