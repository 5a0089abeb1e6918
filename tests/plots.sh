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
# - Each PNG looked at (tests/png-colours.py reads its pixels): it is a
#   drawn figure, not a blank page, and the figures that compare
#   selectors hold the series expected and no other, each drawn in more
#   pixels than a legend's sample: ST, HST (jiffies) and HST (ktime) in
#   the depth figures of results/depth.csv; every selector of the
#   comparison in the latency CDF, ST too where QL coincides with it;
#   and, from a sweep that names queue-length before service-time, both
#   of them in the latency, throughput and utilization figures, with the
#   legend saying that they coincide.
#
# make test renders each figure of plots/figures as SVG, and as PNG too
# the first and the figures whose series are counted; make check renders
# them all as PNG (the two formats draw from the same script and data).
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

# draw SCRIPT INPUT OUTPUT [ARG]: render, and check the file and the
# silence.
draw() {
	if ! gnuplot -c "plots/$1.gp" "$2" "$3" ${4:+"$4"} 2>"$tmp/err"; then
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

# The selectors' colours (plots/mpsim.gpi: scolour): ST, QL, HST
# (jiffies), HST (jiffies-aligned), HST (ktime), and any other selector.
# RR's grey is left out: antialiased black text holds it too.
ST='#0072b2' QL='#cc79a7' HSTJ='#d55e00' HSTA='#e69f00' HSTK='#009e73'
OTHER='#332288'
ALL="$ST $QL $HSTJ $HSTA $HSTK $OTHER"
# A series is drawn when its colour covers more pixels than a legend's
# sample alone (some 100).
DRAWN=300

# series PNG [COLOUR...]: PNG is a drawn figure (pixels other than the
# white background) and, given colours, its series are exactly them:
# each drawn, every other colour of $ALL not.
series() {
	png=$1
	shift
	if ! python3 tests/png-colours.py "$png" $ALL >"$tmp/px" 2>"$tmp/err"; then
		echo "FAIL $png: $(cat "$tmp/err")" >&2
		fail=1
		return
	fi
	ink=$(awk '$1 == "size" { print $4 }' "$tmp/px")
	if [ "${ink:-0}" -lt 10000 ]; then
		echo "FAIL $png: a blank figure ($ink pixels not white)" >&2
		fail=1
	fi
	[ $# -gt 0 ] || return 0
	drawn=$(awk -v min=$DRAWN '$1 ~ /^#/ && $2 > min { printf "%s ", $1 }' "$tmp/px")
	if [ "$drawn" != "$* " ]; then
		echo "FAIL $png: $# series wanted ($*), drawn: ${drawn:-none}" \
		     "($(grep '^#' "$tmp/px" | tr '\n' ' '))" >&2
		fail=1
	fi
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
# The figures whose series are counted, and what they hold.
counted() {
	case $1 in
	latency-vs-depth|throughput-vs-depth|utilization-at-depth)
		echo "$ST $HSTJ $HSTK" ;;
	latency-cdf) echo "$ST $QL $HSTJ $HSTA $HSTK" ;;
	esac
}
grep -v '^#' plots/figures >"$tmp/figures"
first=1
while read -r name gp in arg; do
	for ext in png svg; do
		case " $formats " in
		*" $ext "*) draw "$gp" "results/$in" "$tmp/$name.$ext" "$arg" ;;
		*) [ "$ext" = png ] && { [ -n "$first" ] || [ -n "$(counted "$name")" ]; } &&
			draw "$gp" "results/$in" "$tmp/$name.$ext" "$arg" ;;
		esac
	done
	if [ -e "$tmp/$name.png" ]; then
		want=$(counted "$name")
		series "$tmp/$name.png" $want
	fi
	first=
done <"$tmp/figures"
if [ "$formats" = png ]; then
	[ "$fail" = 0 ] || exit 1
	echo "plots.sh: $n figures rendered as PNG, each looked at"
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

# Queue-length named before service-time, which it coincides with: both
# drawn, and said to coincide, in the figures that compare selectors.
sweep "$tmp/qlst.csv" --iodepth=1,8 --selector=ql,st,hst:clock=jiffies,ktime
for gp in latency-vs-depth throughput-vs-depth utilization-at-depth; do
	draw "$gp" "$tmp/qlst.csv" "$tmp/qlst-$gp.png"
	series "$tmp/qlst-$gp.png" "$ST" "$QL" "$HSTJ" "$HSTK"
	draw "$gp" "$tmp/qlst.csv" "$tmp/qlst-$gp.svg"
	if ! grep -q '>QL (queue-length) = ST (same results)<' "$tmp/qlst-$gp.svg"; then
		echo "FAIL plots/$gp.gp: the legend does not say QL = ST" >&2
		fail=1
	fi
done
# the utilization at one depth: the one asked for, or the deepest
tics "$tmp/qlst-utilization-at-depth.svg" sdd sdm
grep -q 'at queue depth 8 ' "$tmp/qlst-utilization-at-depth.svg" ||
	{ echo "FAIL plots/utilization-at-depth.gp: not the deepest depth by default" >&2; fail=1; }
draw utilization-at-depth "$tmp/qlst.csv" "$tmp/qlst-at1.svg" 1
grep -q 'at queue depth 1 ' "$tmp/qlst-at1.svg" ||
	{ echo "FAIL plots/utilization-at-depth.gp: DEPTH 1 not drawn" >&2; fail=1; }

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
refuse utilization-at-depth "$tmp/depth-2hz.csv" "varies hz (100 and 1000)"
refuse throughput-vs-depth "$tmp/depth-2hz.csv" "varies hz (100 and 1000)"
refuse throughput-vs-depth results/compare.csv "is not a sweep over iodepth"
refuse utilization-at-depth results/compare.csv "is not a sweep"
rc=0
gnuplot -c plots/utilization-at-depth.gp results/depth.csv "$tmp/at3.png" 3 2>"$tmp/err" || rc=$?
if [ "$rc" != 1 ] || ! grep -q 'holds no rows at iodepth 3 (its depths: 1 2 4 8 16 32 64 128)$' "$tmp/err" ||
    [ -e "$tmp/at3.png" ]; then
	echo "FAIL plots/utilization-at-depth.gp at a depth the file lacks: exit $rc, $(cat "$tmp/err")" >&2
	fail=1
fi
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
