#!/bin/sh
# schema.sh: every command's --format=json output, and run's fio JSON
# (--output-format=json), against the one output schema,
# docs/output.schema.json (python3-jsonschema, Draft 2020-12); the
# CSV columns of a run against the JSON fields the schema names; and a
# path with no I/O, whose latency is no figure in every format of run
# and sweep (empty CSV cell, JSON null, a dash in the table), never 0.
#
# usage: schema.sh MPSIM
set -eu
LC_ALL=C
export LC_ALL
mpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# A run short enough for a test; sdd fails at 0 and so has no I/O.
short="--runtime=200ms --ramp_time=0"
fail="--fail=sdd at 0"

# add NAME DEFINITION FILE: FILE is checked against the schema's
# definition (a sweep's JSON lines line by line); doc NAME DEFINITION
# ARGS...: so is the output of mpsim ARGS.
n=0
add() {
	n=$((n + 1))
	printf '%s\t%s\n' "$1" "$2" >>"$tmp/list"
	cp "$3" "$tmp/$n.json"
}
doc() {
	name=$1 defn=$2
	shift 2
	"$mpsim" "$@" >"$tmp/out.json"
	add "$name" "$defn" "$tmp/out.json"
}
doc run-default run run --format=json $short
doc run-mixed run run --format=json $short --rw=randrw --path.sdd.write_delay=10ms
doc run-idle-path run run --format=json $short "$fail"
doc run-failover run --format=json --scenario=tests/golden/failover.ini --seed=5
doc run-request run --format=json --scenario=tests/golden/request.ini
doc run-table run --format=json --scenario=tests/golden/table.ini
doc run-stonewall run --format=json --job=tests/jobs/stonewall-phases.fio
doc run-trim run --format=json --job=tests/jobs/rate-trim.fio $short
doc run-replay run --format=json --read_iolog=tests/iolog/fio-randrw-v3.log
doc run-numjobs run --format=json $short --numjobs=3 --rw=randread
doc run-series run --format=json --scenario=tests/golden/failover.ini --seed=5 --interval=40ms
doc run-series-rr run --format=json $short "$fail" --selector=rr --interval=20ms
# fio's own JSON (--output-format=json, json+): fio_run, the keys of
# fio 3.33's schema that mpsim writes (tests/fio-tools.sh holds it
# beside fio's own)
doc fio-json fio_run run --output-format=json $short
doc fio-json-plus fio_run run --output-format=json+ $short --rw=randrw --path.sdd.write_delay=10ms
doc fio-stonewall fio_run run --output-format=json+ --job=tests/jobs/stonewall-phases.fio
doc compare compare compare --format=json $short
doc compare-all compare compare --format=json --columns=all $short
doc timers timers timers --format=json
doc sweep-idle sweep sweep --format=json --iodepth=1,4 --reps=2 $short "$fail"
doc sweep-swept sweep sweep --format=json --rwmixread=30,70 --rw=randrw $short
# a kernel file as the selector, one and two of them (the second a copy
# under another name); and a swept bssplit
XDG_CACHE_HOME=$tmp
export XDG_CACHE_HOME
sed 's/\.name\t\t= "toy"/.name\t\t= "toy2"/' tests/ksrc/dm-ps-toy.c >"$tmp/dm-ps-toy2.c"
ioa="--scenario=tests/golden/io-affinity.ini $short"
doc sweep-source1 sweep sweep --format=json $ioa --selector-source=tests/ksrc/dm-ps-toy.c
doc sweep-source2 sweep sweep --format=json $ioa "--selector-source=tests/ksrc/dm-ps-toy.c,$tmp/dm-ps-toy2.c"
doc run-source run run --format=json $ioa --selector-source=tests/ksrc/dm-ps-toy.c
doc sweep-bssplit sweep sweep --format=json $short --bssplit=4k/50:64k/50,4k/90:64k/10
"$mpsim" sweep --format=csv $ioa "--selector-source=tests/ksrc/dm-ps-toy.c,$tmp/dm-ps-toy2.c" \
	>"$tmp/source.csv"
"$mpsim" sweep --format=csv $short --bssplit=4k/50:64k/50,4k/90:64k/10 >"$tmp/bssplit.csv"
# a sweep with the run's own figures: the same run as run-failover-q0
doc run-failover-q0 run run --format=json --scenario=tests/golden/failover.ini --queue_if_no_path=0
doc sweep-failover sweep sweep --format=json --scenario=tests/golden/failover.ini --queue_if_no_path=0
# merge joins per-point files into the sweep's file: the same rows
"$mpsim" sweep --format=json --iodepth=1,2 $short --output="$tmp/m.json" \
	--list-runs >"$tmp/runs"
sed "s|^mpsim |\"$mpsim\" |" "$tmp/runs" | sh
"$mpsim" merge --output="$tmp/merged.json" "$tmp"/m.points/point-*.json
add merge sweep "$tmp/merged.json"
# a decision trace's lines, each record kind: dm-delay holds, failures,
# requeues, reinstates, and I/Os failed with no path left
"$mpsim" run --selector=hst --clock=jiffies --ramp_time=0 --runtime=0 \
	--number_ios=300 --delay=1 --fail='sdd at 5ms' --reinstate='sdd at 10ms' \
	--trace="$tmp/trace.json" >/dev/null 2>&1
add trace-hst trace_record "$tmp/trace.json"
"$mpsim" run --selector=st --ramp_time=0 --runtime=0 --number_ios=200 \
	--queue_if_no_path=0 --scenario=tests/golden/failover.ini \
	--trace="$tmp/trace.json" >/dev/null 2>&1
add trace-failover trace_record "$tmp/trace.json"
# two priority groups: the run record's groups
"$mpsim" run --scenario=tests/golden/table.ini --runtime=20ms \
	--trace="$tmp/trace-groups.json" >/dev/null 2>&1
add trace-groups trace_record "$tmp/trace-groups.json"

"$mpsim" run --format=csv $short "$fail" >"$tmp/idle.csv"
"$mpsim" run $short "$fail" >"$tmp/idle.table"
"$mpsim" sweep --format=csv --iodepth=1 $short "$fail" >"$tmp/idle-sweep.csv"

python3 - "$tmp" <<'EOF'
import csv, json, sys
from jsonschema import Draft202012Validator

tmp = sys.argv[1]
schema = json.load(open("docs/output.schema.json"))
Draft202012Validator.check_schema(schema)
fail = 0

validators = {}

def check(name, doc, defn):
    global fail
    # one validator per definition, made once (a sweep checks each row)
    if defn not in validators:
        validators[defn] = Draft202012Validator({"$ref": "#/$defs/" + defn, "$defs": schema["$defs"]})
    v = validators[defn]
    errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    for e in errs[:3]:
        print("schema %s: %s at %s" % (name, e.message, list(e.path)))
    fail += bool(errs)
    return not errs

def expect(name, ok, what):
    global fail
    if not ok:
        print("schema %s: %s" % (name, what))
        fail += 1

docs = {}
for i, line in enumerate(open(tmp + "/list"), 1):
    name, defn = line.rstrip("\n").split("\t")
    text = open("%s/%d.json" % (tmp, i)).read()
    if defn == "sweep":
        lines = [json.loads(l) for l in text.splitlines()]
        check(name + ":head", lines[0], "sweep_head")
        for k, row in enumerate(lines[1:], 2):
            check("%s:%d" % (name, k), row, "sweep_row")
        docs[name] = lines
    elif defn == "trace_record":
        lines = [json.loads(l) for l in text.splitlines()]
        for k, row in enumerate(lines, 1):
            check("%s:%d" % (name, k), row, defn)
        expect(name, set(r["ev"] for r in lines) >= {"run", "submit", "map",
               "dispatch", "complete", "end_io", "done"},
               "records missing: %s" % sorted(set(r["ev"] for r in lines)))
        docs[name] = lines
    else:
        docs[name] = json.loads(text)
        check(name, docs[name], defn)
    # and the whole schema picks exactly this definition
    first = docs[name][0] if defn in ("sweep", "trace_record") else docs[name]
    expect(name, Draft202012Validator(schema).is_valid(first), "not valid against the whole schema")

# The CSV of a run carries exactly the JSON's fields: a column is a key,
# the directions' keys prefixed with the direction; --interval's series
# goes to a file of its own (--series) in CSV.
d = schema["$defs"]
keys = []
for row in ("path_row", "total_row", "job_row"):
    for k in d[row]["properties"]:
        if k in ("read", "write", "trim", "sync"):
            keys += [k + "_" + s for s in d["ddir"]["properties"]]
        elif k != "series":
            keys.append(k)
lines = [l for l in open(tmp + "/idle.csv") if not l.startswith("#")]
rows = list(csv.DictReader(lines))
expect("run-csv", set(rows[0]) == set(keys),
       "CSV columns %s differ from the schema's fields" % sorted(set(rows[0]) ^ set(keys)))

# A path with no I/O has no latency, in every format.
lat = ["lat_mean_us", "lat_p50_us", "lat_p99_us", "lat_p999_us"]
sdd = [r for r in rows if r["path"] == "sdd"][0]
expect("idle-csv", sdd["ios"] == "0" and all(sdd[k] == "" for k in lat)
       and sdd["write_lat_mean_us"] == "", "sdd's latency is not empty: %s" % sdd)
js = [p for p in docs["run-idle-path"]["paths"] if p["path"] == "sdd"][0]
expect("idle-json", js["ios"] == 0 and all(js[k] is None for k in lat)
       and js["write"]["lat_p99_us"] is None, "sdd's latency is not null")
others = [p for p in docs["run-idle-path"]["paths"] if p["path"] != "sdd"]
expect("idle-json", all(p["lat_mean_us"] > 0 for p in others), "a busy path has no latency")
tab = [l for l in open(tmp + "/idle.table") if l.startswith("| sdd |")][0]
cells = [c.strip() for c in tab.strip().strip("|").split("|")]
expect("idle-table", cells[1] == "0" and cells[6:10] == ["-"] * 4,
       "sdd's table row does not dash its latency: %s" % tab.strip())
sw = [r for r in docs["sweep-idle"][1:] if r["path"] == "sdd"]
expect("idle-sweep-json", sw and all(r["lat_mean_us_mean"] is None and
       r["lat_p99_us_mean"] is None for r in sw), "sweep: sdd's latency is not null")
lines = [l for l in open(tmp + "/idle-sweep.csv") if not l.startswith("#")]
sc = [r for r in csv.DictReader(lines) if r["path"] == "sdd"]
expect("idle-sweep-csv", sc and all(r["lat_mean_us_mean"] == "" and
       r["lat_p99_us_mean"] == "" for r in sc), "sweep CSV: sdd's latency is not empty")

# Per direction and per job add up to the whole.
for name in ("run-mixed", "run-replay", "run-stonewall", "run-trim"):
    r = docs[name]
    for row in r["paths"] + [r["total"]] + r["jobs"]:
        s = sum(row[x]["ios"] for x in ("read", "write", "trim", "sync"))
        expect(name, s == row["ios"], "%s: directions sum to %d, not %d" % (row.get("path", row.get("job")), s, row["ios"]))
    expect(name, sum(j["ios"] for j in r["jobs"]) == r["total"]["ios"], "jobs do not sum to the total")
m = docs["run-mixed"]["total"]
expect("run-mixed", m["read"]["ios"] > 0 and m["write"]["ios"] > 0, "randrw has not both directions")
expect("run-stonewall", [j["job"] for j in docs["run-stonewall"]["jobs"]] ==
       ["fill", "random-write", "random-read"] and
       [j["group"] for j in docs["run-stonewall"]["jobs"]] == [0, 1, 2],
       "stonewall phases are not three units in groups 0, 1, 2")
expect("run-numjobs", len(docs["run-numjobs"]["jobs"]) == 3 and
       all(j["clones"] == 1 for j in docs["run-numjobs"]["jobs"]),
       "numjobs=3 without group_reporting is not three units")
for t in [r for r in docs["sweep-swept"][1:] if r["path"] == "total"]:
    parts = t["read_iops_mean"] + t["write_iops_mean"] + t["trim_iops_mean"] + t["sync_iops_mean"]
    expect("sweep-swept", t["read_iops_mean"] > 0 and t["write_iops_mean"] > 0 and
           abs(parts - t["iops_mean"]) < 0.01 and t["trim_lat_mean_us_mean"] is None,
           "sweep: the directions' iops do not split the total's: %s" % t)
# A one-point, one-replication sweep is the run: its rows carry the run's
# counts (ios, bw_bytes, errors per path; failed and no_path in total).
r = docs["run-failover-q0"]
rows = {x["path"]: x for x in docs["sweep-failover"][1:]}
for p in r["paths"] + [r["total"]]:
    name = p.get("path", "total")
    keys = ["ios", "bw_bytes", "errors"] + (["failed", "no_path"] if name == "total" else [])
    for k in keys:
        expect("sweep-failover", rows[name][k + "_mean"] is not None and
               abs(rows[name][k + "_mean"] - p[k]) < 0.05,
               "sweep %s %s_mean %s, the run's %s" % (name, k, rows[name][k + "_mean"], p[k]))
expect("sweep-failover", r["total"]["failed"] > 0, "queue_if_no_path=0 failed no I/O")
# The kernel file that ran, under run JSON's one name, in every sweep row.
src = docs["run-source"]["mpsim"]["options"].get("selector_source")
expect("run-source", src == "tests/ksrc/dm-ps-toy.c", "run JSON's selector_source is %r" % src)
for name, want in (("sweep-source1", ["tests/ksrc/dm-ps-toy.c"]),
                   ("sweep-source2", ["tests/ksrc/dm-ps-toy.c", tmp + "/dm-ps-toy2.c"])):
    got = sorted({x["selector_source"] for x in docs[name][1:]})
    expect(name, got == sorted(want) and all("selector-source" not in x for x in docs[name][1:]),
           "rows name the source %s, not %s" % (got, want))
head = [l for l in open(tmp + "/source.csv") if not l.startswith("#")][0].rstrip("\n").split(",")
expect("sweep-source-csv", head.count("selector_source") == 1 and "selector-source" not in head,
       "CSV columns: %s" % head)
# Under bssplit there is no one block size: bs is empty, the split is shown.
for x in docs["sweep-bssplit"][1:]:
    expect("sweep-bssplit", x["bs"] is None and x["bssplit"] in ("4k/50:64k/50", "4k/90:64k/10"),
           "bs %r, bssplit %r" % (x["bs"], x.get("bssplit")))
lines = [l for l in open(tmp + "/bssplit.csv") if not l.startswith("#")]
expect("sweep-bssplit-csv", all(r["bs"] == "" for r in csv.DictReader(lines)), "CSV bs is not empty")
c = docs["compare"]
expect("compare", all(col["iops"] > 0 for col in c["columns"]), "a column has no IOPS")
print("schema: %d documents, %d failed checks" % (len(docs), fail))
sys.exit(1 if fail else 0)
EOF
