# latency-vs-depth.gp: the multipath device's I/O latency versus the queue
# depth, mean (left panel) and 99th percentile (right panel), a line per
# (selector, clock) pair found in a sweep, with 95% confidence-interval
# bars.  Both axes are logarithmic (x in powers of 2).  The pairs' points
# are set a twentieth of an octave apart, so that curves that coincide
# stay visible side by side; the legend names those that coincide.
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=1,2,...,128 --reps=R
# --output=FILE` (results/depth.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads the rows whose path is
# "total", and in them selector, clock, iodepth, lat_mean_us_mean,
# lat_mean_us_ci95, lat_p99_us_mean and lat_p99_us_ci95.  A file without
# those columns, or one that sweeps another option too, is refused with
# one line on stderr and exit status 1.  The x axis spans the depths
# found; each selector and clock keeps its style of every figure
# (mpsim.gpi).
#
# Usage: gnuplot -c plots/latency-vs-depth.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/latency-vs-depth.gp SWEEP.csv OUTPUT.png|svg"
script = "plots/latency-vs-depth.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock iodepth path lat_mean_us_mean lat_mean_us_ci95 lat_p99_us_mean lat_p99_us_ci95", \
	"a sweep over iodepth", "selector clock iodepth path")

# One line per (selector, clock) pair; clocks that give a selector the
# same latencies share a line.  Two selectors with the same latencies at
# every depth (queue-length and service-time often) are both drawn, a
# little apart, and the legend says they coincide.
LATCOLS = "iodepth lat_mean_us_mean lat_mean_us_ci95 lat_p99_us_mean lat_p99_us_ci95"
plist = pairs(ARG1, "path=total", LATCOLS)
tlist = twins(ARG1, "path=total", LATCOLS)
n = words(plist)
where(p) = "path=total&selector=".psel(p)."&clock=".pclock(p)

# Sizes in pixels: two 560 x 400 panels, the titles above them and the
# legend (one line per pair) under them.
height = 95 + 400 + 75 + 20 * n + 20
eval terminal(1400, height)
set multiplot layout 1, 2 \
	margins 0.06, 0.98, real(75 + 20 * n + 20) / height, 1 - 95.0 / height \
	spacing 0.07, 0 \
	title "I/O latency of the multipath device versus queue depth (mean and 95% confidence interval)\n".provenance \
	font ",13"

# The x range and tics follow the depths in the file.
set logscale x 2
set xrange [colmin("path=total", "iodepth") / 1.25:colmax("path=total", "iodepth") * 1.25]
set xtics () format "%g"
eval xtics_at("path=total", "iodepth")
set logscale y 10
set ytics format "%g"
# Labels at 1, 2 and 5 of each decade: a span of a decade or two reads.
do for [e = 0:7] {
	set ytics add (sprintf("%g", 2 * 10**e) 2 * 10**e, sprintf("%g", 5 * 10**e) 5 * 10**e)
}
set mytics 10
set autoscale yfix
set offsets 0, 0, graph 0.08, graph 0.05
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
load blocks("D", ARG1, wl, "iodepth lat_mean_us_mean lat_mean_us_ci95 lat_p99_us_mean lat_p99_us_ci95", 1)
D(k) = sprintf("$D%d", k)

set title "mean latency"
set ylabel "mean latency (µs)"
plot for [k = 1:n] D(k) \
	using ($1 * dodge(k, n)):2:3 with yerrorlines lw 1.5 lc rgb pcolour(word(plist, k)) \
	dt sdash(psel(word(plist, k))) pt spoint(psel(word(plist, k))) \
	title ptitle(word(plist, k)).tnote(plist, word(tlist, k) + 0)

unset key
set title "99th percentile latency"
set ylabel "p99 latency (µs)"
plot for [k = 1:n] D(k) \
	using ($1 * dodge(k, n)):4:5 with yerrorlines lw 1.5 lc rgb pcolour(word(plist, k)) \
	dt sdash(psel(word(plist, k))) pt spoint(psel(word(plist, k))) \
	notitle
unset multiplot
