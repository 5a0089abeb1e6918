# share-vs-depth.gp: each path's share of the I/Os versus the queue depth,
# one panel per (selector, clock) pair found in a sweep: a line per path
# with its 95% confidence-interval bars, and the paths' Best shares
# (capacity shares) as dashed black reference lines.  The x axis is log2.
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=1,2,...,128 --reps=R
# --output=FILE` (results/depth.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads selector, clock, iodepth,
# path, best, share_mean and share_ci95, and skips the "total" rows.  It
# expects one row per (selector, clock, iodepth, path): sweep no other
# option in the same file.  Panels come in the order the pairs first
# appear; paths keep their colour across panels.
#
# Usage: gnuplot -c plots/share-vs-depth.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/share-vs-depth.gp SWEEP.csv OUTPUT.png|svg"
call system("dirname '".ARG0."'")."/mpsim.gpi" ARG1 ARG2

# pairs: "selector/clock" words, one per panel.
pairs = ""
do for [s in values(ARG1, "path!=total", "selector")] {
	do for [c in values(ARG1, "path!=total&selector=".s, "clock")] {
		pairs = pairs.s."/".c." "
	}
}
paths = values(ARG1, "path!=total", "path")
np = words(paths)
n = words(pairs)
pcols = n > 1 ? 2 : 1
prows = (n + pcols - 1) / pcols
sel(p) = p[1:strstrt(p, "/") - 1]
clk(p) = p[strstrt(p, "/") + 1:]
where(p, i) = "selector=".sel(p)."&clock=".clk(p)."&path=".word(paths, i)
# The paths' points at one depth are spread a little sideways (by at most
# a seventh of a doubling) so that their confidence bars stay apart.
dodge(x, i) = x * 2 ** (0.3 * (i - (np + 1) / 2.0) / np)

# Sizes in pixels: a 420-pixel panel row, room for the titles above and
# for tic labels, axis label and the next panel's title between rows.
height = 100 + 420 * prows
eval terminal(1400, height)
set multiplot layout prows, pcols \
	margins 0.06, 0.83, 60.0 / height, 1 - 95.0 / height \
	spacing 0.06, 105.0 / height \
	title "Share of I/Os per path versus queue depth (mean and 95% confidence interval)\n".provenance \
	font ",13"

set logscale x 2
set xrange [0.8:160]
set xtics 2 format "%g"
# One y scale for every panel, so panels compare at a glance.
stats rows(ARG1, "path!=total", "share_mean share_ci95 best") \
	using ($1 + $2 > $3 ? $1 + $2 : $3) nooutput
set yrange [0:STATS_max * 1.05]
set ytics format "%.2f"
set grid xtics ytics lc rgb "#d0d0d0"
set xlabel "queue depth (iodepth, I/Os in flight)"
set ylabel "share of I/Os (fraction)"
set pointsize 0.8
set bars 0.5
set key at screen 0.845, screen 1 - 95.0 / height top left vertical Left reverse \
	samplen 2.5 spacing 1.2 title "path"

do for [k = 1:n] {
	p = word(pairs, k)
	set title sprintf("%s (%s), clock %s", abbrev(sel(p)), sel(p), clk(p))
	plot for [i = 1:np] sorted(ARG1, where(p, i), "iodepth share_mean share_ci95") \
		using (dodge($1, i)):2:3 with yerrorlines lw 1.5 lc rgb colour(i) pt (4 + i % 10) \
		title word(paths, i), \
	     for [i = 1:np] sorted(ARG1, where(p, i), "iodepth best") \
		using 1:2 with lines dt 2 lw 1.2 lc rgb "#000000" \
		title (i == 1 ? "Best (capacity share)" : "")
	unset key
}
unset multiplot
