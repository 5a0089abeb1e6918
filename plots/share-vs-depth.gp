# share-vs-depth.gp: each path's share of the I/Os versus the queue depth,
# one panel per (selector, clock) pair found in a sweep: a line per path
# with its 95% confidence-interval bars, and the paths' Best shares
# (capacity shares) as dashed black reference lines.  The x axis is log2.
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=1,2,...,128 --reps=R
# --output=FILE` (results/depth.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads selector, clock, iodepth,
# path, best, share_mean and share_ci95, and skips the "total" rows.  A
# file without those columns, or one that sweeps another option too (two
# rows for one selector, clock, iodepth and path), is refused with one
# line on stderr and exit status 1.  The x axis spans the depths found.  Panels come in the order the pairs first
# appear; paths keep their colour across panels.
#
# Usage: gnuplot -c plots/share-vs-depth.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/share-vs-depth.gp SWEEP.csv OUTPUT.png|svg"
script = "plots/share-vs-depth.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock iodepth path best share_mean share_ci95", \
	"a sweep over iodepth", "selector clock iodepth path")

# One panel per (selector, clock) pair; clocks that give a selector the
# same shares share a panel.
plist = pairs(ARG1, "path!=total", "iodepth path share_mean share_ci95")
n = words(plist)
paths = values(ARG1, "path!=total", "path")
np = words(paths)
where(p, i) = "selector=".psel(p)."&clock=".pclock(p)."&path=".word(paths, i)
# The paths' points at one depth are spread a little sideways (by at most
# a seventh of a doubling) so that their confidence bars stay apart.
dodge(x, i) = x * 2 ** (0.3 * (i - (np + 1) / 2.0) / np)

# Two panels a row; the legend takes the free cell when the last row has
# one panel, else a column at the right.  Sizes in pixels: L, R, T and B
# are the outer margins (T holds the titles), PW x PH a panel, SX and SY
# the gaps between panels (tic labels, axis label, the next title).
pcols = n > 1 ? 2 : 1
prows = (n + pcols - 1) / pcols
keycell = n > 1 && n % 2 == 1
L = 80; R = keycell ? 30 : 230; T = 95; B = 60
PW = 560; PH = 400; SX = 100; SY = 105
width = L + pcols * PW + (pcols - 1) * SX + R
height = T + prows * PH + (prows - 1) * SY + B
eval terminal(width, height)
set multiplot layout prows, pcols \
	margins real(L) / width, 1 - real(R) / width, real(B) / height, 1 - real(T) / height \
	spacing real(SX) / width, real(SY) / height \
	title "Share of I/Os per path versus queue depth (mean and 95% confidence interval)\n".provenance \
	font ",13"

# The x range and tics follow the depths in the file.
set logscale x 2
set xrange [colmin("path!=total", "iodepth") / 1.25:colmax("path!=total", "iodepth") * 1.25]
set xtics () format "%g"
eval xtics_at("path!=total", "iodepth")
# Each panel has its own y scale (one path may take every I/O at a small
# depth), from 0 (an invisible line at 0 in every panel) and a little
# below, so that a starved path's points stay visible.
set autoscale yfix
set offsets 0, 0, graph 0.06, graph 0.04
set ytics format "%.2f"
set grid xtics ytics lc rgb "#d0d0d0"
set xlabel "queue depth (iodepth, I/Os in flight)"
set ylabel "share of I/Os (fraction)"
set pointsize 0.8
set bars 0.5
if (keycell) {
	set key at screen real(L + PW + SX + 40) / width, screen real(B + PH) / height
} else {
	set key at screen 1 - real(R - 20) / width, screen 1 - real(T) / height
}
set key top left vertical \
	Left reverse samplen 2.5 spacing 1.2 title "path"

# Every curve's rows, read at once: $S((k - 1) * np + i) for pair k, path i.
wl = ""
do for [k = 1:n] { do for [i = 1:np] { wl = wl.where(word(plist, k), i)." " } }
load blocks("S", ARG1, wl, "iodepth share_mean share_ci95 best", 1)
S(k, i) = sprintf("$S%d", (k - 1) * np + i)

do for [k = 1:n] {
	p = word(plist, k)
	set title ptitle(p)
	plot for [i = 1:np] S(k, i) \
		using (dodge($1, i)):2:(band_lo($2, $3)):(band_hi($2, $3)) with yerrorlines lw 1.5 lc rgb colour(i) pt (4 + i % 10) \
		title word(paths, i), \
	     for [i = 1:np] S(k, i) \
		using 1:4 with lines dt 2 lw 1.2 lc rgb "#000000" \
		title (i == 1 ? "Best (capacity share)" : ""), \
	     0 with lines lt nodraw notitle
	unset key
}
unset multiplot
