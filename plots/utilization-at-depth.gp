# utilization-at-depth.gp: how a sweep's selectors spread the work over
# the paths at one queue depth: each path's utilization, the fraction of
# the measured time it had at least one I/O in service (iostat's %util,
# busy_mean in the sweep file: the mean over the replications), as
# clustered bars, one cluster per path and one bar per (selector, clock)
# pair in its colour of every figure, with the 95% confidence interval of
# the mean.  A selector that keeps every path busy has a flat row of bars
# at 1; one that idles slow paths, short bars there.  Selectors whose
# bars coincide are all drawn (side by side), and the legend says so.
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=... --reps=R --output=FILE`
# (results/depth.csv), or a sweep at one depth: a "# mpsim ..." line, then
# a header that names the columns; this script reads selector, clock,
# iodepth, path, busy_mean and busy_ci95 of the rows at DEPTH (default:
# the deepest in the file), and skips the "total" rows.  A file without
# those columns, one that sweeps another option too, or one without
# DEPTH is refused with one line on stderr and exit status 1.
#
# Usage: gnuplot -c plots/utilization-at-depth.gp INPUT.csv OUTPUT.png|svg [DEPTH]

usage = "gnuplot -c plots/utilization-at-depth.gp SWEEP.csv OUTPUT.png|svg [DEPTH]"
script = "plots/utilization-at-depth.gp"
depth_arg = ARGC >= 3 ? ARG3 : ""
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock iodepth path busy_mean busy_ci95", \
	"a sweep (mpsim sweep)", "selector clock iodepth path")

# The depth drawn: DEPTH, which the file must hold, or its deepest.
depths = values(ARG1, "path!=total", "iodepth")
if (depth_arg eq "") {
	depth = sprintf("%d", colmax("path!=total", "iodepth"))
} else {
	depth = depth_arg
}
if (strstrt(" ".depths, " ".depth." ") == 0) {
	eval refuse(sprintf("%s: %s holds no rows at iodepth %s (its depths: %s)", \
		script, ARG1, depth, depths[1:strlen(depths) - 1]))
}
at = "path!=total&iodepth=".depth

plist = pairs(ARG1, at, "path busy_mean busy_ci95")
tlist = twins(ARG1, at, "path busy_mean busy_ci95")
n = words(plist)
paths = values(ARG1, at, "path")
np = words(paths)

# Bars of one cluster fill 80% of the unit between cluster centres.
bw = 0.8 / n
bx(k) = (k - (n + 1) / 2.0) * bw

eval terminal(1200, 560 + 20 * n)
set title "Utilization per path at queue depth ".depth. \
	" (fraction of the time with an I/O in service; mean and 95% confidence interval)\n". \
	provenance font ",13"
set xlabel "path (member device of the multipath device)"
set ylabel "utilization (busy fraction of the measured time)"
set yrange [0:1.05]
set ytics 0.2 format "%.1f"
set xrange [-0.6:np - 0.4]
set grid ytics lc rgb "#d0d0d0"
set xtics scale 0 ()
do for [i = 1:np] {
	set xtics add (word(paths, i) i - 1)
}
set key below vertical Left reverse samplen 2 spacing 1.2 maxrows n height 1
set boxwidth bw absolute
set style fill solid 1.0 noborder

# Every bar's rows, read at once: $B(k) for pair k, in path order.
wl = ""
do for [k = 1:n] { wl = wl.at."&selector=".psel(word(plist, k))."&clock=".pclock(word(plist, k))." " }
load blocks("B", ARG1, wl, "busy_mean busy_ci95", 0)
B(k) = sprintf("$B%d", k)

plot for [k = 1:n] B(k) \
	using ($0 + bx(k)):1 with boxes lc rgb pcolour(word(plist, k)) \
	title ptitle(word(plist, k)).tnote(plist, word(tlist, k) + 0), \
     for [k = 1:n] B(k) \
	using ($0 + bx(k)):(band_lo($1, $2)):(0):(band_hi($1, $2) - band_lo($1, $2)) \
	with vectors nohead lw 1.2 \
	lc rgb "#333333" notitle
