# latency-cdf.gp: the distribution of I/O latency, submission to
# completion, per path and for the multipath device in total: a panel
# per path (the total first), a curve per (selector, clock) pair giving
# the fraction of the path's I/Os that completed within a latency, in
# the selector's style of every figure (mpsim.gpi).  A path that got no
# I/O under a selector has no curve for it.  When the file holds
# per-direction rows (a run that mixes reads and writes), each path has a
# panel per direction instead.
#
# Input: the latency histograms, `./mpsim compare --lat_hist=FILE` or
# `./mpsim --lat_hist=FILE` (results/lat-hist.csv): a "# mpsim ...
# lat_hist" line, then the header; this script reads selector, clock,
# path, ddir, lat_hi_us and cdf (the fraction at or below lat_hi_us).  Any
# other file is refused with one line on stderr and exit status 1.
#
# Usage: gnuplot -c plots/latency-cdf.gp LAT_HIST.csv OUTPUT.png|svg

usage = "gnuplot -c plots/latency-cdf.gp LAT_HIST.csv OUTPUT.png|svg"
script = "plots/latency-cdf.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock path ddir lat_lo_us lat_hi_us count cdf", \
	"a latency histogram file (mpsim --lat_hist)", "selector clock path ddir lat_lo_us")

# Pairs whose every histogram is another's (queue-length and
# service-time often) are both drawn, the dashed one over the solid one,
# which is drawn wider so that it shows on both sides, and the legend
# says they coincide.
plist = pairs(ARG1, "ddir=all", "path lat_lo_us count")
tlist = twins(ARG1, "ddir=all", "path lat_lo_us count")
n = words(plist)
# The panels, "path:direction": the total first, then the paths in file
# order, all directions together or, when the file splits them, each.
dirs = values(ARG1, "ddir!=all", "ddir")
pnames = "total ".values(ARG1, "path!=total", "path")
panels = ""
do for [q in pnames] {
	if (words(dirs) == 0) {
		panels = panels.q.":all "
	} else {
		do for [d in dirs] { panels = panels.q.":".d." " }
	}
}
np = words(panels)
pname(i) = word(panels, i)[1:strstrt(word(panels, i), ":") - 1]
pdir(i) = word(panels, i)[strstrt(word(panels, i), ":") + 1:]
where(p, i) = "selector=".psel(p)."&clock=".pclock(p)."&path=".pname(i)."&ddir=".pdir(i)

# Four panels a row, the legend in the free cell after the last (or a
# row of its own when the panels fill their rows).
pcols = np < 4 ? np : 4
prows = (np + pcols - 1) / pcols + (np % pcols == 0 ? 1 : 0)
L = 80; R = 30; T = 95; B = 55; PW = 400; PH = 270; SX = 75; SY = 105
width = L + pcols * PW + (pcols - 1) * SX + R
height = T + prows * PH + (prows - 1) * SY + B
eval terminal(width, height)
set multiplot layout prows, pcols \
	margins real(L) / width, 1 - real(R) / width, real(B) / height, 1 - real(T) / height \
	spacing real(SX) / width, real(SY) / height \
	title "Latency distribution (CDF) per path, by path selector and start-time clock\n".provenance \
	font ",13"

set logscale x 10
set xrange [colmin("", "lat_lo_us"):colmax("", "lat_hi_us")]
set xtics format "%g"
set mxtics 10
set yrange [0:1.02]
set ytics 0.2 format "%.1f"
set grid xtics ytics mxtics lc rgb "#d0d0d0", lc rgb "#eeeeee"
set xlabel "latency (µs, log scale)"
set ylabel "fraction of I/Os completed within"
cell = np + 1
cx = (cell - 1) % pcols
cy = (cell - 1) / pcols
set key at screen real(L + cx * (PW + SX) + 20) / width, \
	screen 1 - real(T + cy * (PH + SY)) / height \
	top left vertical Left reverse samplen 3 spacing 1.3 title "selector (clock)" font ",11"

# Every curve's rows, read at once: $C((i - 1) * n + k) for panel i,
# pair k; a pair has a curve in panel i when that block has rows.
wl = ""
do for [i = 1:np] { do for [k = 1:n] { wl = wl.where(word(plist, k), i)." " } }
load blocks("C", ARG1, wl, "lat_hi_us cdf", 0)
C(k, i) = sprintf("$C%d", (i - 1) * n + k)
has(k, i) = C_n[(i - 1) * n + k] > 0
do for [i = 1:np] {
	ks = ""
	do for [k = 1:n] {
		if (has(k, i)) { ks = ks.sprintf("%d ", k) }
	}
	set title (pname(i) eq "total" ? "total (the multipath device)" : "path ".pname(i)). \
		(pdir(i) eq "all" ? "" : ", ".pdir(i)."s")
	plot for [k in ks] C(k + 0, i) \
		using 1:2 with steps lw (twinned(tlist, k + 0) ? 4 : 1.6) \
		lc rgb pcolour(word(plist, k + 0)) \
		dt sdash(psel(word(plist, k + 0))) \
		title plabel(word(plist, k + 0)).tnote(plist, word(tlist, k + 0) + 0)
	unset key
}
unset multiplot
