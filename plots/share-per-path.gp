# share-per-path.gp: each path's share of the I/Os in a comparison run,
# as clustered bars, one per selector and start-time clock, with the
# path's Best share (its capacity share) as a black line across its
# cluster: the numbers of the comparison table.  per-path-bars.gpi draws
# it and says what it reads.
#
# Usage: gnuplot -c plots/share-per-path.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/share-per-path.gp COMPARE.csv OUTPUT.png|svg"
script = "plots/share-per-path.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2

value = "share"
heading = "Share of I/Os per path, by path selector and start-time clock"
ylabel = "share of I/Os (fraction of all I/Os)"
ymax = -1
best = 1
call here(ARG0, strlen(ARG0))."/per-path-bars.gpi" ARG1 ARG2
