# hz.gp: the share of the I/Os that the slow paths get versus the
# kernel's HZ, one panel per (selector, clock) pair found in a sweep: a
# line per slow path with its 95% confidence-interval bars, and the
# paths' Best shares (capacity shares) as dashed black reference lines.
# A path is slow when its Best share is below the largest Best share;
# when all paths have the same capacity every path is drawn.
#
# Input: a sweep CSV, `./mpsim sweep --hz=100,250,300,1000 --reps=R
# --output=FILE` (results/hz.csv): a "# mpsim ..." line, then a header
# that names the columns; this script reads selector, clock, hz, path,
# best, share_mean and share_ci95, and skips the "total" rows.  A file
# without those columns, or one that sweeps another option too (two rows
# for one selector, clock, hz and path), is refused with one line on
# stderr and exit status 1.  The x axis spans the HZ values found.
#
# Usage: gnuplot -c plots/hz.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/hz.gp SWEEP.csv OUTPUT.png|svg"
script = "plots/hz.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock hz path best share_mean share_ci95", \
	"a sweep over hz", "selector clock hz path")

# One panel per (selector, clock) pair; clocks that give a selector the
# same shares share a panel.
plist = pairs(ARG1, "path!=total", "hz path share_mean share_ci95")
n = words(plist)

# The slow paths, in file order: Best share below the largest one.
slow = system(rows(ARG1, "path!=total", "path best")[2:]." | awk -F, '\
	!($1 in b) { p[++np] = $1 } { b[$1] = $2; if ($2 > m) m = $2 } \
	END { for (i = 1; i <= np; i++) if (b[p[i]] < m * 0.999) printf \"%s \", p[i] }'")
paths = values(ARG1, "path!=total", "path")
show = words(slow) > 0 ? slow : paths
ns = words(show)
# A path keeps the colour of its place among all paths (as in
# share-vs-depth.gp), slow or not.
pidx(name, j) = j > words(paths) ? 0 : word(paths, j) eq name ? j : pidx(name, j + 1)
pindex(name) = pidx(name, 1)
where(p, i) = "selector=".psel(p)."&clock=".pclock(p)."&path=".word(show, i)
# The paths' points at one HZ are spread a little sideways so that their
# confidence bars stay apart.
dodge(x, i) = x * 10 ** (0.04 * (i - (ns + 1) / 2.0) / ns)

# Sizes in pixels: 600 per panel, 260 for the legend on the right.
width = 600 * n + 260
eval terminal(width, 640)
set multiplot layout 1, n \
	margins 90.0 / width, 1 - 250.0 / width, 0.11, 0.82 \
	spacing 100.0 / width, 0 \
	title "Share of I/Os of the slow paths versus the kernel's HZ (mean and 95% confidence interval)\n".provenance \
	font ",13"

# The x range follows the HZ values in the file, a tic at each.
set logscale x 10
set xrange [colmin("path!=total", "hz") / 1.25:colmax("path!=total", "hz") * 1.25]
set xtics () format "%g"
eval xtics_at("path!=total", "hz")
# One y scale for every panel, up to the highest bar or Best share drawn,
# and from a little below 0, so that a starved path's points stay visible.
ymax = real(system(rows(ARG1, "path!=total", "path share_mean share_ci95 best")[2:]. \
	" | awk -F, -v show='".show."' 'BEGIN { split(show, s, \" \"); for (i in s) want[s[i]] = 1 } \
	want[$1] { v = $2 + $3; if ($4 > v) v = $4; if (v > m) m = v } END { print m + 0 }'"))
set yrange [-ymax * 0.04:ymax * 1.08]
set ytics format "%.3f"
set grid xtics ytics lc rgb "#d0d0d0"
set xlabel "HZ (timer ticks per second; log scale)"
set ylabel "share of I/Os (fraction)"
set pointsize 0.9
set bars 0.5
set key at screen 1 - 235.0 / width, screen 0.82 top left vertical \
	Left reverse samplen 2.5 spacing 1.2 title "path"

# Every curve's rows, read at once: $H((k - 1) * ns + i) for pair k, path i.
wl = ""
do for [k = 1:n] { do for [i = 1:ns] { wl = wl.where(word(plist, k), i)." " } }
load blocks("H", ARG1, wl, "hz share_mean share_ci95 best", 1)
H(k, i) = sprintf("$H%d", (k - 1) * ns + i)

do for [k = 1:n] {
	p = word(plist, k)
	set title ptitle(p)
	plot for [i = 1:ns] H(k, i) \
		using (dodge($1, i)):2:(band_lo($2, $3)):(band_hi($2, $3)) \
		with yerrorlines lw 1.5 \
		lc rgb colour(pindex(word(show, i))) pt (4 + pindex(word(show, i)) % 10) \
		title word(show, i), \
	     for [i = 1:ns] H(k, i) \
		using 1:4 with lines dt 2 lw 1.2 lc rgb "#000000" \
		title (i == 1 ? "Best (capacity share)" : "")
	unset key
}
unset multiplot
