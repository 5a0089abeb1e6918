# throughput-vs-depth.gp: the multipath device's throughput versus the
# queue depth, I/Os per second (left panel) and bandwidth in MiB/s (right
# panel), a line per (selector, clock) pair found in a sweep, with 95%
# confidence-interval bars: which selector is fastest, at which depth.
# The x axis is logarithmic (powers of 2), the y axes start at 0.  The
# pairs' points are set a twentieth of an octave apart, so that curves
# that coincide stay visible side by side; the legend names those that
# coincide (queue-length and service-time often).
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=1,2,...,128 --reps=R
# --output=FILE` (results/depth.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads the rows whose path is
# "total", and in them selector, clock, iodepth, iops_mean, iops_ci95,
# bw_bytes_mean and bw_bytes_ci95 (bytes per second).  A file without
# those columns, or one that sweeps another option too, is refused with
# one line on stderr and exit status 1.  The x axis spans the depths
# found; each selector and clock keeps its style of every figure
# (mpsim.gpi).
#
# Usage: gnuplot -c plots/throughput-vs-depth.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/throughput-vs-depth.gp SWEEP.csv OUTPUT.png|svg"
script = "plots/throughput-vs-depth.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock iodepth path iops_mean iops_ci95 bw_bytes_mean bw_bytes_ci95", \
	"a sweep over iodepth", "selector clock iodepth path")

# One line per (selector, clock) pair; clocks that give a selector the
# same throughput share a line, and selectors that coincide are said so.
TPCOLS = "iodepth iops_mean iops_ci95 bw_bytes_mean bw_bytes_ci95"
plist = pairs(ARG1, "path=total", TPCOLS)
tlist = twins(ARG1, "path=total", TPCOLS)
n = words(plist)
where(p) = "path=total&selector=".psel(p)."&clock=".pclock(p)

# Sizes in pixels: two 560 x 400 panels, the titles above them and the
# legend (one line per pair) under them.
height = 95 + 400 + 75 + 20 * n + 20
eval terminal(1400, height)
set multiplot layout 1, 2 \
	margins 0.06, 0.98, real(75 + 20 * n + 20) / height, 1 - 95.0 / height \
	spacing 0.07, 0 \
	title "Throughput of the multipath device versus queue depth (mean and 95% confidence interval)\n".provenance \
	font ",13"

# The x range and tics follow the depths in the file.
set logscale x 2
set xrange [colmin("path=total", "iodepth") / 1.25:colmax("path=total", "iodepth") * 1.25]
set xtics () format "%g"
eval xtics_at("path=total", "iodepth")
set yrange [0:*]
set ytics format "%g"
set mytics 2
set offsets 0, 0, graph 0.05, 0
set grid xtics ytics mytics lc rgb "#d0d0d0", lc rgb "#eeeeee"
set xlabel "queue depth (iodepth, I/Os in flight)"
set pointsize 0.9
set bars 0.5
# One legend for both panels, under them.
set key at screen 0.5, screen 10.0 / height bottom center vertical \
	Left reverse samplen 3

# Every curve's rows, read at once: $D(k) for pair k.
wl = ""
do for [k = 1:n] { wl = wl.where(word(plist, k))." " }
load blocks("D", ARG1, wl, TPCOLS, 1)
D(k) = sprintf("$D%d", k)
MiB = 1048576.0

set title "I/Os per second"
set ylabel "IOPS (I/Os completed per second)"
set format y "%.0s%c"
plot for [k = 1:n] D(k) \
	using ($1 * dodge(k, n)):2:3 with yerrorlines lw 1.5 lc rgb pcolour(word(plist, k)) \
	dt sdash(psel(word(plist, k))) pt spoint(psel(word(plist, k))) \
	title ptitle(word(plist, k)).tnote(plist, word(tlist, k) + 0)

unset key
set title "bandwidth"
set ylabel "bandwidth (MiB/s)"
set format y "%g"
plot for [k = 1:n] D(k) \
	using ($1 * dodge(k, n)):($4 / MiB):($5 / MiB) with yerrorlines lw 1.5 \
	lc rgb pcolour(word(plist, k)) \
	dt sdash(psel(word(plist, k))) pt spoint(psel(word(plist, k))) \
	notitle
unset multiplot
