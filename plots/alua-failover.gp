# alua-failover.gp: the built-in ALUA scenario over time, in 100 ms
# windows: the share of the I/Os each path completed (top) and the
# latency of the whole device, mean and p99 on a log scale (bottom).
# The optimized paths sda and sdb are lost at 2 s and back at 5 s.
#
# Input: results/alua-failover.csv (make results): the run's --series
# file at --interval=100ms, of which it reads t_end_s (the window's end),
# path, share, lat_mean_us and lat_p99_us; one row per path and a "total"
# row per window.
#
# Usage: gnuplot -c plots/alua-failover.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/alua-failover.gp ALUA.csv OUTPUT.png|svg"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2

paths = values(ARG1, "path!=total", "path")
np = words(paths)

eval terminal(1400, 760)
set multiplot layout 2, 1 \
	title "ALUA array: optimized paths lost at 2 s, back at 5 s (100 ms windows)\n".provenance \
	font ",13"
set grid xtics ytics lc rgb "#d0d0d0"
# both panels share one x axis: fixed margins, the keys right of them
set lmargin at screen 0.09
set rmargin at screen 0.86
set xrange [0:8]
set xtics 1
set key outside right top vertical Left reverse samplen 2.5 spacing 1.2
# the failover and the failback
set arrow 1 from 2, graph 0 to 2, graph 1 nohead dt 3 lc rgb "#606060"
set arrow 2 from 5, graph 0 to 5, graph 1 nohead dt 3 lc rgb "#606060"

set ylabel "share of I/Os (fraction)"
set yrange [-0.02:1.02]
set format x ""
plot for [i = 1:np] rows(ARG1, "path=".word(paths, i), "t_end_s share") \
	using ($1 - 0.1):2 with steps lw 1.8 lc rgb colour(i) \
	title word(paths, i)

set format x "%g"
set xlabel "time since the start (s); each step is one 100 ms window"
set ylabel "latency (us, log scale)"
set logscale y 10
set autoscale y
plot rows(ARG1, "path=total", "t_end_s lat_p99_us") using ($1 - 0.1):2 \
	with steps lw 1.8 lc rgb "#d55e00" title "p99", \
     rows(ARG1, "path=total", "t_end_s lat_mean_us") using ($1 - 0.1):2 \
	with steps lw 1.8 lc rgb "#0072b2" title "mean"
unset multiplot
