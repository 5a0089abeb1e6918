#!/bin/sh
# fio-tools.sh: fio's own formats of mpsim as fio's own tools read them.
# One job runs under a real fio (psync on a small file, a third of a
# second) and under mpsim, each writing terse lines and json+
# (--output-format=terse,json+) and the bandwidth, IOPS and latency logs
# averaged over 50 ms.  Then:
#  - the two JSON documents have the same keys at every level fio's tools
#    read (jobs[], read/write/trim/sync, clat_ns with percentile and bins,
#    disk_util[] when fio has a disk), and the terse lines the same fields
#    in the same places;
#  - Debian's fio_jsonplus_clat2csv turns each into the same columns,
#    rows that add up to the job's I/Os, and validates its CSV;
#  - fio_generate_plots and fio2gnuplot make the same files from each
#    run's logs (SVG, PNG);
#  - the logs' lines are fio's, per I/O (log_avg_msec=0) and averaged,
#    named per clone (per_job_logs), and agree with the JSON: a line per
#    I/O, bandwidth = bytes * 10^6 / latency, and disk_util's util is the
#    busy of mpsim's own JSON.
#
# usage: fio-tools.sh MPSIM   (the fio package: sh .ci/deps test)
set -eu
LC_ALL=C
export LC_ALL
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for t in fio fio_jsonplus_clat2csv fio2gnuplot fio_generate_plots gnuplot; do
	command -v "$t" >/dev/null 2>&1 ||
		{ echo "fio-tools: $t is missing (sh .ci/deps test installs it)"; exit 1; }
done

# The job, on fio's command line and on mpsim's; the logs' prefix is
# "run" in both, so the tools name their files alike.
job="--name=x --ioengine=psync --filename=f --size=4m --bs=4k --rw=randread --time_based --runtime=300ms --rate_iops=2000"
logs="--write_bw_log=run --write_iops_log=run --write_lat_log=run --log_avg_msec=50"
mkdir "$tmp/fio" "$tmp/mpsim"
# shellcheck disable=SC2086
(cd "$tmp/fio" && fio $job $logs --output-format=terse,json+ --output=out >/dev/null 2>err) ||
	{ echo "fio-tools: fio failed:"; cat "$tmp/fio/err"; exit 1; }
# shellcheck disable=SC2086
(cd "$tmp/mpsim" && "$mpsim" $job $logs --output-format=terse,json+ --output=out 2>err) ||
	{ echo "fio-tools: mpsim failed:"; cat "$tmp/mpsim/err"; exit 1; }
for d in fio mpsim; do
	# fio's order: the terse lines, then the JSON
	sed -n '/^{$/,$p' "$tmp/$d/out" >"$tmp/$d/out.json"
	sed '/^{$/,$d' "$tmp/$d/out" >"$tmp/$d/out.terse"
	(cd "$tmp/$d" && fio_jsonplus_clat2csv out.json c.csv >clat2csv.txt &&
	    fio_jsonplus_clat2csv out.json c.csv --validate >>clat2csv.txt &&
	    fio_generate_plots plots >plots.txt 2>&1 &&
	    mkdir bw && cp run_bw.1.log bw/ && cd bw && fio2gnuplot -b -g >../fio2gnuplot.txt 2>&1) ||
		{ echo "fio-tools: a tool failed on $d's output"; exit 1; }
done

# Lines per I/O, two clones, one log file for both (per_job_logs=0),
# and the figures of mpsim's own JSON for the same run.
mkdir "$tmp/per-io"
(cd "$tmp/per-io" &&
	"$mpsim" --runtime=30ms --ramp_time=10ms --numjobs=2 --write_lat_log=l --write_bw_log=b \
	    --write_iops_log=i --output-format=json >fio.json &&
	"$mpsim" --runtime=30ms --ramp_time=10ms --numjobs=2 --format=json >own.json &&
	"$mpsim" --runtime=30ms --ramp_time=10ms --numjobs=2 --write_lat_log=s --per_job_logs=0 \
	    --minimal --terse-version=5 >t5.txt) ||
	{ echo "fio-tools: mpsim's per-I/O logs failed"; exit 1; }
# a log that cannot be written: the run fails, naming it, and prints
# nothing
st=0
(cd "$tmp/per-io" && "$mpsim" --runtime=10ms --write_bw_log=no/dir >out.txt 2>err.txt) || st=$?
unwritable=ok
grep -q '^mpsim: write_bw_log: .*no/dir_bw.1.log' "$tmp/per-io/err.txt" && [ "$st" = 1 ] &&
    [ ! -s "$tmp/per-io/out.txt" ] ||
    unwritable="status $st, stderr $(cat "$tmp/per-io/err.txt")"

python3 - "$tmp" "$unwritable" <<'EOF'
import csv, glob, json, os, re, sys

tmp = sys.argv[1]
passed = failed = 0

def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("fio-tools: FAIL " + what)

check(sys.argv[2] == "ok", "a log that cannot be written: " + sys.argv[2])
fio = json.load(open(tmp + "/fio/out.json"))
mp = json.load(open(tmp + "/mpsim/out.json"))

# -- the same keys where fio's tools look --
check(set(fio) - {"global options", "disk_util"} <= set(mp) and
      set(mp) - set(fio) <= {"mpsim", "disk_util"},
      "top-level keys: fio %s, mpsim %s" % (sorted(fio), sorted(mp)))
fj, mj = fio["jobs"][0], mp["jobs"][0]
check(set(fj) == set(mj), "job keys differ: %s" % sorted(set(fj) ^ set(mj)))
for d in ("read", "write", "trim"):
    check(set(fj[d]) == set(mj[d]), "%s keys differ: %s" % (d, sorted(set(fj[d]) ^ set(mj[d]))))
    for lat in ("slat_ns", "clat_ns", "lat_ns"):
        check(set(fj[d][lat]) == set(mj[d][lat]),
              "%s.%s keys differ: %s" % (d, lat, sorted(set(fj[d][lat]) ^ set(mj[d][lat]))))
check(set(fj["sync"]) == set(mj["sync"]) and
      set(fj["sync"]["lat_ns"]) == set(mj["sync"]["lat_ns"]), "sync keys differ")
pf, pm = fj["read"]["clat_ns"], mj["read"]["clat_ns"]
check(set(pf["percentile"]) == set(pm["percentile"]),
      "percentile keys differ: %s" % sorted(set(pf["percentile"]) ^ set(pm["percentile"])))
check(all(re.fullmatch(r"[0-9]+", k) for k in pm["bins"]) and
      sum(pm["bins"].values()) == pm["N"] == mj["read"]["total_ios"] > 0,
      "mpsim's bins do not count its %d reads" % mj["read"]["total_ios"])
for k in ("latency_ns", "latency_us", "latency_ms", "iodepth_level"):
    check(set(fj[k]) == set(mj[k]), "%s keys differ" % k)
if "disk_util" in fio:
    check(set(fio["disk_util"][0]) == set(mp["disk_util"][0]),
          "disk_util keys differ: %s" % sorted(set(fio["disk_util"][0]) ^ set(mp["disk_util"][0])))
check([x["name"] for x in mp["disk_util"]] ==
      ["sdd", "sde", "sdf", "sdg", "sdh", "sdi", "sdj", "sdk", "sdl", "sdm"],
      "disk_util does not name the paths")
check(sum(x["read_ios"] for x in mp["disk_util"]) == mj["read"]["total_ios"],
      "disk_util's read_ios do not add up to the job's")
# the same rate: 2000 I/Os a second, over fio's runtime in ms
check(abs(mj["read"]["iops"] - 2000) < 20 and mj["read"]["runtime"] in (300, 301),
      "mpsim's iops %s over %s ms" % (mj["read"]["iops"], mj["read"]["runtime"]))

# -- terse: fio's fields in fio's places, a disk's 9 at the end --
tf = open(tmp + "/fio/out.terse").read().split("\n")[0].split(";")
tm = open(tmp + "/mpsim/out.terse").read().split("\n")[0].split(";")
nf, nm = len(fio.get("disk_util", [])), len(mp["disk_util"])
check(len(tf) == 121 + 9 * nf and len(tm) == 121 + 9 * nm,
      "terse fields: fio %d (%d disks), mpsim %d (%d disks)" % (len(tf), nf, len(tm), nm))
shape = lambda f: [("%=" in x, x.endswith("%")) for x in f[:121]]
check(tf[:3] == tm[:3] == ["3", "fio-3.33", "x"] and shape(tf) == shape(tm),
      "terse fields are not in fio's places")
check(tm[121:130] == ["sdd"] + [str(x) for x in [mp["disk_util"][0][k] for k in
      ("read_ios", "write_ios", "read_merges", "write_merges", "read_ticks",
       "write_ticks", "in_queue")]] + ["%.2f%%" % mp["disk_util"][0]["util"]],
      "terse's disk fields are not disk_util's: %s" % tm[121:130])
t5 = open(tmp + "/per-io/t5.txt").read().split("\n")
check(len(t5) == 3 and all(len(l.split(";")) == 180 + 9 * 10 for l in t5[:2]),
      "terse version 5: %s fields" % [len(l.split(";")) for l in t5])

# -- fio_jsonplus_clat2csv: the same columns; rows that count the I/Os --
for d, doc in (("fio", fio), ("mpsim", mp)):
    text = open(tmp + "/" + d + "/clat2csv.txt").read()
    check("c_job0.csv generated" in text and "c_job0.csv validated" in text,
          "clat2csv on %s's JSON: %s" % (d, text.strip()))
    rows = list(csv.reader(open(tmp + "/" + d + "/c_job0.csv"), skipinitialspace=True))
    head = [c.strip() for c in rows[0] if c.strip()]
    check(head[:2] == ["nsec", "read_slat_ns_count"] and len(head) == 28,
          "%s CSV columns: %s" % (d, head))
    i = head.index("read_clat_ns_count")
    counts = [int(r[i]) for r in rows[1:] if len(r) > i and r[i].strip()]
    n = doc["jobs"][0]["read"]["clat_ns"]["N"]
    check(sum(counts) == n and rows[-1][i + 2].strip() in ("1.0", "1"),
          "%s CSV: read clat counts %d of %d I/Os" % (d, sum(counts), n))
hf = open(tmp + "/fio/c_job0.csv").readline()
check(hf == open(tmp + "/mpsim/c_job0.csv").readline(), "the CSVs' headers differ")

# -- fio_generate_plots and fio2gnuplot: the same files from each --
def made(d, pat):
    return {os.path.basename(p): os.path.getsize(p) for p in glob.glob(tmp + "/" + d + "/" + pat)}
sf, sm = made("fio", "*.svg"), made("mpsim", "*.svg")
check(set(sf) == set(sm) == {"plots-%s.svg" % k for k in ("bw", "iops", "lat", "clat", "slat")},
      "fio_generate_plots made %s from fio's logs, %s from mpsim's" % (sorted(sf), sorted(sm)))
check(all((sm[k] > 0) == (sf[k] > 0) for k in sm) and sm["plots-bw.svg"] > 0,
      "fio_generate_plots: empty figures differ: fio %s, mpsim %s" % (sf, sm))
check(b"<svg" in open(tmp + "/mpsim/plots-lat.svg", "rb").read(), "plots-lat.svg is no SVG")
gf, gm = made("fio/bw", "*.png"), made("mpsim/bw", "*.png")
check(set(gf) == set(gm) >= {"result.average.png", "run_bw.1-2Draw.png",
                             "run_bw.1-2Dsmooth.png", "run_bw.1-2Dtrend.png"},
      "fio2gnuplot made %s from fio's log, %s from mpsim's" % (sorted(gf), sorted(gm)))
check(all(open(tmp + "/mpsim/bw/" + p, "rb").read(8) == b"\x89PNG\r\n\x1a\n" for p in gm),
      "fio2gnuplot's figures of mpsim's log are not PNG")

# -- the logs: fio's lines --
line = re.compile(r"^[0-9]+, [0-9]+, [0-2], [0-9]+, 0$")
for d in ("fio", "mpsim"):
    for k in ("bw", "iops", "lat", "clat", "slat"):
        lines = open("%s/%s/run_%s.1.log" % (tmp, d, k)).read().splitlines()
        check(all(line.match(l) for l in lines) and (len(lines) > 1) == (k != "slat"),
              "%s's run_%s.1.log: %d lines, not fio's" % (d, k, len(lines)))
# averaged: a line at the first completion of each 50 ms, the last
# window's at the end
lm = [l.split(", ") for l in open(tmp + "/mpsim/run_lat.1.log")]
check([int(l[0]) // 50 for l in lm[:5]] == [1, 2, 3, 4, 5] and all(l[3] == "0" for l in lm),
      "averaged lat log times: %s" % [l[0] for l in lm])
bw = [l.split(", ") for l in open(tmp + "/mpsim/run_bw.1.log")]
check(len(bw) == 5 and all(abs(int(l[1]) - 8000) <= 160 for l in bw),
      "bandwidth log is not 2000 x 4 KiB/s: %s" % bw)

# per I/O: one line per completion of each clone, in fio's names
p = tmp + "/per-io/"
pj = json.load(open(p + "fio.json"))
own = json.load(open(p + "own.json"))
check(sorted(os.path.basename(f) for f in glob.glob(p + "*.log")) ==
      sorted("%s_%s.%d.log" % (pre, k, n) for n in (1, 2) for pre, k in
             (("l", "lat"), ("l", "clat"), ("l", "slat"), ("b", "bw"), ("i", "iops"))) +
      ["s_clat.log", "s_lat.log", "s_slat.log"],
      "log names: %s" % sorted(os.path.basename(f) for f in glob.glob(p + "*.log")))
for n in (1, 2):
    lat = [l.split(", ") for l in open(p + "l_lat.%d.log" % n)]
    bwl = [l.split(", ") for l in open(p + "b_bw.%d.log" % n)]
    iops = [l.split(", ") for l in open(p + "i_iops.%d.log" % n)]
    job = pj["jobs"][n - 1]["write"]
    check(len(lat) == len(bwl) == len(iops) == job["total_ios"] > 0,
          "clone %d: %d lat lines, %d bw, %d iops, %d I/Os" % (n, len(lat), len(bwl), len(iops), job["total_ios"]))
    check(all(int(b[1]) == int(l[3]) * 10**6 // int(l[1]) and b[0] == l[0] and i[1] == "1"
              for l, b, i in zip(lat, bwl, iops)), "clone %d: bw is not bytes * 10^6 / lat" % n)
    check(min(int(l[1]) for l in lat) == job["clat_ns"]["min"] and
          max(int(l[1]) for l in lat) == job["clat_ns"]["max"], "clone %d: lat log and clat_ns differ" % n)
    check(job["bw_samples"] == job["total_ios"], "clone %d: bw samples are not per I/O" % n)
shared = open(p + "s_lat.log").read().splitlines()
check(len(shared) == sum(j["write"]["total_ios"] for j in pj["jobs"]), "per_job_logs=0: both clones' lines in one file")
for k, path in zip(pj["disk_util"], own["paths"]):
    check(k["name"] == path["path"] and k["write_ios"] == path["write"]["ios"] and
          abs(k["util"] - 100 * path["busy"]) < 1e-3,
          "disk_util %s: %s against the run's %s" % (k["name"], k, path["busy"]))
print("fio-tools: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
