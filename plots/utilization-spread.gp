# utilization-spread.gp: how unequal the paths' utilization is at each
# queue depth, one panel per (selector, clock) pair found in a sweep.  At
# each depth a box spans the middle half of the paths' utilizations
# (first to third quartile, linear interpolation between the sorted
# values), a black bar marks the median, whiskers reach the least and
# the most used path, and each path is a dot in its colour (of every
# per-path figure), spread sideways in path order.  A tall box means
# the selector loads some paths while others idle; a flat one at 1.0,
# that every path is saturated.
#
# Utilization is the fraction of the measured time a path had at least
# one I/O in service (iostat's %util, `busy` in mpsim's outputs); each
# dot is the mean over the sweep's replications (busy_mean).  The spread
# drawn is across paths, not across replications (utilization-vs-depth
# shows the confidence interval of each mean).
#
# Input: a sweep CSV, `./mpsim sweep --iodepth=1,2,...,128 --reps=R
# --output=FILE` (results/depth.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads selector, clock, iodepth,
# path and busy_mean, and skips the "total" rows.  A file without those
# columns, or one that sweeps another option too, is refused with one
# line on stderr and exit status 1.  The x axis (log2) spans the depths
# found.
#
# Usage: gnuplot -c plots/utilization-spread.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/utilization-spread.gp SWEEP.csv OUTPUT.png|svg"
script = "plots/utilization-spread.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock iodepth path busy_mean", \
	"a sweep over iodepth", "selector clock iodepth path")

plist = pairs(ARG1, "path!=total", "iodepth path busy_mean")
n = words(plist)
paths = values(ARG1, "path!=total", "path")
np = words(paths)
wpair(p) = "path!=total&selector=".psel(p)."&clock=".pclock(p)
wpath(p, i) = wpair(p)."&path=".word(paths, i)

# The depths are drawn at log2(depth) on a linear axis (a box keeps its
# width at every depth) and labelled with the depth itself.
lg(d) = log(d) / log(2)
XT_AWK = '{ printf "%s\"%s\" %.6f", (NR > 1 ? ", " : "set xtics ("), $1, log($1) / log(2) } END { if (NR) print ")" }'
xtics_cmd = system(rows(ARG1, "path!=total", "iodepth")[2:]." | sort -n | uniq | awk '".XT_AWK."'")

# The five numbers of each depth, from a pair's rows "iodepth,busy":
# depth, minimum, first quartile, median, third quartile, maximum.
FIVE_AWK = 'function q(f,   h, l) { h = (c - 1) * f + 1; l = int(h); \
    return l >= c ? v[c] : v[l] + (h - l) * (v[l + 1] - v[l]) } \
  function out() { if (c) printf "%s,%g,%g,%g,%g,%g\n", d, v[1], q(0.25), q(0.5), q(0.75), v[c] } \
  $1 != d { out(); d = $1; c = 0 } { v[++c] = $2 + 0 } END { out() }'
five(p) = rows(ARG1, wpair(p), "iodepth busy_mean")." | sort -t, -k1,1n -k2,2g | awk -F, '".FIVE_AWK."'"
# ... read once per panel into the datablock $FIVE (load it), which both
# the boxes and the medians plot
FIVE_BLOCK = 'BEGIN { print "$FIVE << EOD" } { print } END { print "EOD" }'
five_block(p) = five(p)." | awk '".FIVE_BLOCK."'"

# A path's dot: offset sideways in path order, within the box.
BW = 0.56
off(i) = np > 1 ? BW * 0.8 * ((i - 1.0) / (np - 1) - 0.5) : 0

# Two panels a row; the legend takes the free cell when the last row has
# one panel, else a column at the right (as share-vs-depth.gp).
pcols = n > 1 ? 2 : 1
prows = (n + pcols - 1) / pcols
keycell = n > 1 && n % 2 == 1
L = 80; R = keycell ? 30 : 230; T = 95; B = 60
PW = 560; PH = 380; SX = 100; SY = 105
width = L + pcols * PW + (pcols - 1) * SX + R
height = T + prows * PH + (prows - 1) * SY + B
eval terminal(width, height)
set multiplot layout prows, pcols \
	margins real(L) / width, 1 - real(R) / width, real(B) / height, 1 - real(T) / height \
	spacing real(SX) / width, real(SY) / height \
	title "Utilization across the paths at each queue depth (box: quartiles, bar: median, whiskers: least and most used path)\n".provenance \
	font ",13"

set xrange [lg(colmin("path!=total", "iodepth")) - 0.6:lg(colmax("path!=total", "iodepth")) + 0.6]
set xtics ()
eval xtics_cmd
set yrange [-0.03:1.03]
set ytics 0.2 format "%.1f"
set grid xtics ytics lc rgb "#d0d0d0"
set xlabel "queue depth (iodepth, I/Os in flight)"
set ylabel "utilization (busy fraction of time)"
set boxwidth BW absolute
set style fill solid 1.0 border rgb "#555555"
set bars 1.0
if (keycell) {
	set key at screen real(L + PW + SX + 40) / width, screen real(B + PH) / height
} else {
	set key at screen 1 - real(R - 20) / width, screen 1 - real(T) / height
}
set key top left vertical Left reverse samplen 2 spacing 1.2 title "path"

# Every path's dots, read at once: $P((k - 1) * np + i) for pair k, path i.
wl = ""
do for [k = 1:n] { do for [i = 1:np] { wl = wl.wpath(word(plist, k), i)." " } }
load blocks("P", ARG1, wl, "iodepth busy_mean", 0)
P(k, i) = sprintf("$P%d", (k - 1) * np + i)

do for [k = 1:n] {
	p = word(plist, k)
	set title ptitle(p)
	load five_block(p)
	plot $FIVE using (lg($1)):3:2:6:5 with candlesticks whiskerbars 0.5 \
		lc rgb "#555555" fc rgb "#e8e8e8" notitle, \
	     $FIVE using (lg($1) - BW / 2):4:(BW):(0) with vectors nohead lw 2.5 lc rgb "#000000" notitle, \
	     for [i = 1:np] P(k, i) \
		using (lg($1) + off(i)):2 with points pt 7 ps 0.8 lc rgb colour(i) \
		title word(paths, i)
	unset key
}
unset multiplot
