# latency-vs-depth.gp: the multipath device's I/O latency versus the queue
# depth, mean (left panel) and 99th percentile (right panel), a line per
# (selector, clock) pair found in a sweep, with 95% confidence-interval
# bars.  Both axes are logarithmic (x in powers of 2).
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=1,2,...,128 --reps=R
# --output=FILE` (results/depth.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads the rows whose path is
# "total", and in them selector, clock, iodepth, lat_mean_us_mean,
# lat_mean_us_ci95, lat_p99_us_mean and lat_p99_us_ci95.  It expects one
# total row per (selector, clock, iodepth): sweep no other option in the
# same file.
#
# Usage: gnuplot -c plots/latency-vs-depth.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/latency-vs-depth.gp SWEEP.csv OUTPUT.png|svg"
call system("dirname '".ARG0."'")."/mpsim.gpi" ARG1 ARG2

# pairs: "selector/clock" words, one line each.
pairs = ""
do for [s in values(ARG1, "path=total", "selector")] {
	do for [c in values(ARG1, "path=total&selector=".s, "clock")] {
		pairs = pairs.s."/".c." "
	}
}
n = words(pairs)
sel(p) = p[1:strstrt(p, "/") - 1]
clk(p) = p[strstrt(p, "/") + 1:]
where(p) = "path=total&selector=".sel(p)."&clock=".clk(p)
label(p) = sprintf("%s (%s), clock %s", abbrev(sel(p)), sel(p), clk(p))

eval terminal(1400, 600)
set multiplot layout 1, 2 margins 0.06, 0.98, 0.13, 0.84 spacing 0.07, 0 \
	title "I/O latency of the multipath device versus queue depth (mean and 95% confidence interval)\n".provenance \
	font ",13"

set logscale x 2
set xrange [0.8:160]
set xtics 2 format "%g"
set logscale y 10
set ytics format "%g"
set mytics 10
set autoscale yfix
set offsets 0, 0, graph 0.08, graph 0.05
set grid xtics ytics mytics lc rgb "#d0d0d0", lc rgb "#eeeeee"
set xlabel "queue depth (iodepth, I/Os in flight)"
set pointsize 0.9
set bars 0.5
# Latency grows with depth, so the top left corner stays free for the
# legend (one, for both panels).
set key inside top left vertical Left reverse samplen 3 box opaque

set title "mean latency"
set ylabel "mean latency (µs)"
plot for [k = 1:n] sorted(ARG1, where(word(pairs, k)), "iodepth lat_mean_us_mean lat_mean_us_ci95") \
	using 1:2:3 with yerrorlines lw 1.5 lc rgb colour(k) pt (4 + k % 10) \
	title label(word(pairs, k))

unset key
set title "99th percentile latency"
set ylabel "p99 latency (µs)"
plot for [k = 1:n] sorted(ARG1, where(word(pairs, k)), "iodepth lat_p99_us_mean lat_p99_us_ci95") \
	using 1:2:3 with yerrorlines lw 1.5 lc rgb colour(k) pt (4 + k % 10) \
	notitle
unset multiplot
