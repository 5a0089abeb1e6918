# timeline.gp: each path's share of the I/Os, its utilization (busy
# fraction) and the selector's estimate over time, from the time series
# of one run or one comparison: a column of panels per (selector, clock)
# pair, a line per path in the path's colour.  Path failures and
# reinstatements given on the command line (--fail, --reinstate) are
# drawn as dotted vertical lines.
#
# Input: a series CSV, `./mpsim --interval=DURATION --series=FILE` or
# `./mpsim compare --interval=DURATION --series=FILE`
# (results/timeline-hst-jiffies.csv, results/failover.csv): a "# mpsim
# ... series" line, then the header; this script reads selector, clock,
# t_start_s, t_end_s, path, share, busy, estimate and estimate_name, and
# skips the "total" rows.  Any other file is refused with one line on
# stderr and exit status 1.  Each interval is a step from its start to
# its end; an interval without I/O has no share and leaves a gap.
#
# Usage: gnuplot -c plots/timeline.gp SERIES.csv OUTPUT.png|svg

usage = "gnuplot -c plots/timeline.gp SERIES.csv OUTPUT.png|svg"
script = "plots/timeline.gp"
# (the folder of this script, found without a process: plots/mpsim.gpi)
here(s, i) = i < 1 ? "." : s[i:i] eq "/" ? s[1:i - 1] : here(s, i - 1)
call here(ARG0, strlen(ARG0))."/mpsim.gpi" ARG1 ARG2
eval check("selector clock interval t_start_s t_end_s path share busy estimate estimate_name", \
	"a time series (mpsim --interval --series)", "selector clock interval path")

plist = pairs(ARG1, "path!=total", "interval path share busy estimate")
n = words(plist)
paths = values(ARG1, "path!=total", "path")
np = words(paths)
where(p, i) = "selector=".psel(p)."&clock=".pclock(p)."&path=".word(paths, i)
# estimate_name of a pair: "" when its selector keeps none (round-robin).
ename(p) = word(values(ARG1, "selector=".psel(p)."&clock=".pclock(p)."&path!=total", "estimate_name")." ", 1)
has_est = 0
do for [k = 1:n] {
	if (ename(word(plist, k)) ne "") { has_est = 1 }
}
ntop = 2 + has_est

# The path events of the command line, "NAME SECONDS fail|reinstate"
# triples, from the provenance line's options.
EV_AWK = '{ s = $0; while (match(s, /--(fail|reinstate)=[^ ]+ at [0-9.]+[a-z]*/)) { \
  e = substr(s, RSTART + 2, RLENGTH - 2); s = substr(s, RSTART + RLENGTH); \
  split(e, a, "[= ]"); t = a[4]; v = t + 0; u = t; sub(/^[0-9.]+/, "", u); \
  if (u == "ms") v /= 1e3; else if (u == "us") v /= 1e6; else if (u == "ns") v /= 1e9; \
  else if (u == "m") v *= 60; else if (u == "h") v *= 3600; \
  printf "%s %.9g %s ", a[2], v, a[1] } }'
events = system("sed -n 1p '".ARG1."' | awk '".EV_AWK."'")
nev = words(events) / 3

# The provenance line, its options on a line of their own.
wrapped = system("sed -n '1{s/^# *//;s/, options: /\\noptions: /;p}' '".ARG1."'")

# Sizes in pixels: panels of PW x PH, L R T B outer margins (R holds the
# legend), SX SY between panels.
L = 90; R = 200; T = 130; B = 60; PH = 230; SX = 95; SY = 45
PW = n == 1 ? 1100 : 520
width = L + n * PW + (n - 1) * SX + R
height = T + ntop * PH + (ntop - 1) * SY + B
eval terminal(width, height)
set multiplot layout ntop, n \
	margins real(L) / width, 1 - real(R) / width, real(B) / height, 1 - real(T) / height \
	spacing real(SX) / width, real(SY) / height \
	title "Share of I/Os, utilization and the selector's estimate per path over time\n".wrapped \
	font ",13"

tmin = colmin("path!=total", "t_start_s")
tmax = colmax("path!=total", "t_end_s")
set xrange [tmin:tmax]
set grid xtics ytics lc rgb "#d0d0d0"
set style textbox opaque noborder
set key at screen 1 - real(R - 20) / width, screen 1 - real(T) / height \
	top left vertical Left reverse samplen 2.5 spacing 1.2 title "path"
# stepped(k, i, m): an interval's value as a flat line from its start
# to its end, joined to the next; an empty value (no I/O) breaks it.
# Every curve is read at once: $T((k - 1) * np + i)_m for pair k, path i
# and column m of "t_start_s t_end_s share busy estimate" (3, 4, 5).
wl = ""
do for [k = 1:n] { do for [i = 1:np] { wl = wl.where(word(plist, k), i)." " } }
load blocks("T", ARG1, wl, "t_start_s t_end_s share busy estimate", 2)
stepped(k, i, m) = sprintf("$T%d_%d", (k - 1) * np + i, m)
set style line 100 lc rgb "#000000" dt 3 lw 1.2

do for [k = 1:n] {
	p = word(plist, k)
	unset arrow; unset label
	do for [e = 1:nev] {
		t = real(word(events, 3 * e - 1))
		set arrow from t, graph 0 to t, graph 1 nohead ls 100
		set label word(events, 3 * e - 2)." ".(word(events, 3 * e) eq "fail" ? "fails" : "back") \
			at t, graph 0.97 left offset 0.4, 0 front font ",9" boxed
	}
	set title ptitle(p) offset 0, 0.6
	set ylabel "share of I/Os (fraction)"
	set yrange [0:*]
	set ytics format "%.2f"
	set offsets 0, 0, graph 0.05, 0
	plot for [i = 1:np] stepped(k, i, 3) \
		using 1:2 with lines lw 1.5 lc rgb colour(i) title word(paths, i)
	unset key
}
do for [k = 1:n] {
	p = word(plist, k)
	unset arrow; unset label
	do for [e = 1:nev] {
		t = real(word(events, 3 * e - 1))
		set arrow from t, graph 0 to t, graph 1 nohead ls 100
	}
	unset title
	set ylabel "utilization (busy fraction)"
	set yrange [0:1.05]
	set offsets 0, 0, 0, 0
	if (!has_est) { set xlabel "time since the run's start (s)" }
	plot for [i = 1:np] stepped(k, i, 4) \
		using 1:2 with lines lw 1.5 lc rgb colour(i) notitle
}
if (has_est) {
	do for [k = 1:n] {
		p = word(plist, k)
		en = ename(p)
		set xlabel "time since the run's start (s)"
		unset arrow; unset label
		do for [e = 1:nev] {
			t = real(word(events, 3 * e - 1))
			set arrow from t, graph 0 to t, graph 1 nohead ls 100
		}
		if (en eq "") {
			# round-robin keeps no estimate: an empty panel says so
			set label "no estimate (".abbrev(psel(p)).")" at graph 0.5, graph 0.5 center
			set yrange [0:1]
			unset logscale y
			plot NaN notitle
		} else {
			# hst (ns x 1024, as the kernel keeps it) drawn in us; it
			# spans 1e2 to 1e8 us after a jiffies-epoch sample: log
			if (en eq "hst") {
				set logscale y 10
				set ytics format "%.0e"
				set ylabel "estimate: hst (µs)"
				scale = 1024e3
			} else {
				unset logscale y
				set ytics format "%g"
				set ylabel "estimate: ".en
				scale = 1
			}
			set yrange [*:*]
			plot for [i = 1:np] stepped(k, i, 5) \
				using 1:($2 / scale) with lines lw 1.5 lc rgb colour(i) notitle
		}
	}
}
unset multiplot
