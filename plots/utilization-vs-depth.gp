# utilization-vs-depth.gp: each path's utilization (the fraction of the
# measured time it had at least one I/O in service, iostat's %util,
# `busy` in mpsim's outputs) and its share of the I/Os versus the queue
# depth, a row of two panels per (selector, clock) pair found in a
# sweep: a line per path, its 95% confidence band shaded around it.  A
# path that is wanted yet idle, or saturated while others idle, shows in
# the left panel; the right one says where its I/Os went.  The x axes
# are log2.
#
# The bands are the 95% confidence intervals of the mean over the
# sweep's replications (busy_ci95 and share_ci95, Student's t): they say
# how well the mean is known, not how much one run varies (the CSV holds
# no standard deviation or extremes of the replications).  A sweep with
# one replication has no interval; its band is empty.
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=1,2,...,128 --reps=R
# --output=FILE` (results/depth.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads selector, clock, iodepth,
# path, busy_mean, busy_ci95, share_mean and share_ci95, and skips the
# "total" rows.  A file without those columns, or one that sweeps
# another option too, is refused with one line on stderr and exit status
# 1.  The x axis spans the depths found.  Rows come in the order the
# pairs first appear; paths keep their colour across panels (and in
# share-vs-depth and utilization-spread).
#
# Usage: gnuplot -c plots/utilization-vs-depth.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/utilization-vs-depth.gp SWEEP.csv OUTPUT.png|svg"
script = "plots/utilization-vs-depth.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock iodepth path busy_mean busy_ci95 share_mean share_ci95", \
	"a sweep over iodepth", "selector clock iodepth path")

# One row per (selector, clock) pair; clocks that give a selector the
# same results share a row.
plist = pairs(ARG1, "path!=total", "iodepth path busy_mean busy_ci95 share_mean share_ci95")
n = words(plist)
paths = values(ARG1, "path!=total", "path")
np = words(paths)
where(p, i) = "selector=".psel(p)."&clock=".pclock(p)."&path=".word(paths, i)

# Sizes in pixels: L, R, T and B the outer margins (T holds the titles,
# R the legend), PW x PH a panel, SX and SY the gaps between panels.
L = 80; R = 170; T = 95; B = 60
PW = 540; PH = 300; SX = 95; SY = 100
width = L + 2 * PW + SX + R
height = T + n * PH + (n - 1) * SY + B
eval terminal(width, height)
set multiplot layout n, 2 \
	margins real(L) / width, 1 - real(R) / width, real(B) / height, 1 - real(T) / height \
	spacing real(SX) / width, real(SY) / height \
	title "Utilization and share of I/Os per path versus queue depth (mean, shaded: 95% confidence interval of the mean)\n".provenance \
	font ",13"

set logscale x 2
set xrange [colmin("path!=total", "iodepth") / 1.25:colmax("path!=total", "iodepth") * 1.25]
set xtics () format "%g"
eval xtics_at("path!=total", "iodepth")
set grid xtics ytics lc rgb "#d0d0d0"
set xlabel "queue depth (iodepth, I/Os in flight)"
set pointsize 0.7
set style fill transparent solid 0.22 noborder
set key at screen 1 - real(R - 15) / width, screen 1 - real(T) / height \
	top left vertical Left reverse samplen 2.5 spacing 1.2 title "path"

# Every curve's rows, read at once: $U((k - 1) * np + i) for pair k, path i.
wl = ""
do for [k = 1:n] { do for [i = 1:np] { wl = wl.where(word(plist, k), i)." " } }
load blocks("U", ARG1, wl, "iodepth busy_mean busy_ci95 share_mean share_ci95", 1)
U(k, i) = sprintf("$U%d", (k - 1) * np + i)

do for [k = 1:n] {
	p = word(plist, k)
	# utilization: a fraction of the time, 0 to 1 in every row
	set title ptitle(p).": utilization"
	set ylabel "utilization (busy fraction of time)"
	set yrange [-0.03:1.03]
	set ytics 0.2 format "%.1f"
	plot for [i = 1:np] U(k, i) \
		using 1:(band_lo($2, $3)):(band_hi($2, $3)) with filledcurves \
		lc rgb colour(i) notitle, \
	     for [i = 1:np] U(k, i) \
		using 1:2 with linespoints lw 1.5 lc rgb colour(i) pt (4 + i % 10) \
		title (k == 1 ? word(paths, i) : "")
	unset key
	# share: each row has its own scale (one path may take every I/O)
	set title ptitle(p).": share of I/Os"
	set ylabel "share of I/Os (fraction)"
	set yrange [*:*]
	set autoscale yfix
	set offsets 0, 0, graph 0.06, graph 0.04
	set ytics autofreq format "%.2f"
	plot for [i = 1:np] U(k, i) \
		using 1:(band_lo($4, $5)):(band_hi($4, $5)) with filledcurves \
		lc rgb colour(i) notitle, \
	     for [i = 1:np] U(k, i) \
		using 1:4 with linespoints lw 1.5 lc rgb colour(i) pt (4 + i % 10) notitle, \
	     0 with lines lt nodraw notitle
	set offsets 0, 0, 0, 0
}
unset multiplot
