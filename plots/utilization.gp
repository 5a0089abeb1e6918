# utilization.gp: each path's utilization in a comparison run, the
# fraction of the measured time it had at least one I/O in service
# (iostat's %util; `busy` in mpsim's outputs), as clustered bars, one
# per selector and start-time clock.  A path that is fast enough to be
# wanted yet idle part of the time shows here, where its share of the
# I/Os alone would not say why.  per-path-bars.gpi draws it and says
# what it reads.
#
# Usage: gnuplot -c plots/utilization.gp INPUT.csv OUTPUT.png|svg

usage = "gnuplot -c plots/utilization.gp COMPARE.csv OUTPUT.png|svg"
script = "plots/utilization.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2

value = "busy"
heading = "Utilization per path (fraction of the time with an I/O in service), by path selector and start-time clock"
ylabel = "utilization (busy fraction of the measured time)"
ymax = 1.05
best = 0
call here(ARG0, strlen(ARG0))."/per-path-bars.gpi" ARG1 ARG2
