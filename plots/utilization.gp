# utilization.gp: the utilization distribution of a comparison run, as
# clustered bars: one cluster per path, one bar per comparison column
# (selector and start-time clock) giving the path's share of the I/Os,
# and a black line across each cluster at the path's Best share (its
# capacity share).  The same numbers as the comparison table.
#
# Input: the comparison CSV, `./mpsim --format=csv` (results/compare.csv):
# a "# mpsim ..." line, then the header path,column,selector,clock,share,
# best,iops, one row per (path, column) and a "total" row per column
# (left out here); paths and columns are drawn in the order they first
# appear.  A column's legend entry is its selector's
# initials (ST, HST, QL, RR), followed by the clock when the file holds
# that selector with more than one clock.
#
# Usage: gnuplot -c plots/utilization.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/utilization.gp COMPARE.csv OUTPUT.png|svg"
call system("dirname '".ARG0."'")."/mpsim.gpi" ARG1 ARG2

paths = values(ARG1, "path!=total", "path")
keys = values(ARG1, "", "column")
np = words(paths)
nk = words(keys)

# label(k): the legend entry of comparison column k.
sel(k) = word(values(ARG1, "column=".k, "selector"), 1)
clk(k) = word(values(ARG1, "column=".k, "clock"), 1)
label(k) = abbrev(sel(k)).(words(values(ARG1, "selector=".sel(k), "clock")) > 1 ? " (".clk(k).")" : "")

# Bars of one cluster fill 80% of the unit between cluster centres.
bw = 0.8 / nk
bx(j) = (j - (nk + 1) / 2.0) * bw

eval terminal(1200, 620)
set title "Share of I/Os per path, by path selector and start-time clock\n".provenance font ",13"
set xlabel "path (member device of the multipath device)"
set ylabel "share of I/Os (fraction of all I/Os)"
set yrange [0:*]
set xrange [-0.6:np - 0.4]
set ytics format "%.2f"
set grid ytics lc rgb "#d0d0d0"
set xtics scale 0 ()
do for [i = 1:np] {
	set xtics add (word(paths, i) i - 1)
}
set key outside right top vertical Left reverse samplen 2 spacing 1.3
set boxwidth bw absolute
set style fill solid 0.85 noborder
set offsets 0, 0, graph 0.05, 0

plot for [j = 1:nk] rows(ARG1, "column=".word(keys, j)."&path!=total", "share") \
	using ($0 + bx(j)):1 with boxes lc rgb colour(j) title label(word(keys, j)), \
     rows(ARG1, "column=".word(keys, 1)."&path!=total", "best") \
	using ($0 - 0.45):1:(0.9):(0) with vectors nohead lw 2.5 lc rgb "#000000" \
	title "Best (capacity share)"
