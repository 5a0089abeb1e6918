#!/usr/bin/env python3
"""
run.py: make mutate.  Builds every one-line mutant of the given files
(tests/mutate/mutants.py) and runs the fastest checks that can kill it,
in order: the Criterion suites of that file, the whole Criterion binary,
then (for the selectors) tests/kernel-check.sh.  Prints, per file, how
many mutants were killed, survived, are listed as equivalent
(tests/mutate/equivalent.txt, not built) or did not compile
("stillborn"), and the time; exits 1 if any survived.

The tree is copied once to a scratch directory (build/mutate/wN/src) and
built there at -O1 without -flto, which links in a fraction of the time;
a mutant is written over its file in the copy, `make` rebuilds what
depends on it, and afterwards the file, the objects and the binaries are
put back as they were (their times too), so that the next mutant
rebuilds only its own file.  With --jobs=N, N copies run mutants side
by side.

Usage: run.py [--jobs=N] [--match=TEXT] [--list] [--stop] FILE...
"""
import argparse
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # nothing written into the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutants as gen  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = "obj"
MAKE = ["make", "--no-print-directory", "BUILD=" + BUILD, "CI=",
        "CFLAGS=-O1 -g"]

SEL = []
# The Criterion suites that test each file, run first; "kc" marks the
# files whose mutants make kernel-check can see (it sets mpsim's
# selectors beside the kernel's on the same engine, so an engine mutant
# changes both sides alike).
SUITES = {
    "selectors/historical-service-time.c": (["hst"] + SEL, True),
    "selectors/service-time.c": (["service_time"] + SEL, True),
    "selectors/queue-length.c": (["queue_length"] + SEL, True),
    "selectors/round-robin.c": (["round_robin"] + SEL, True),
    "selectors/io-affinity.c": (["io_affinity"] + SEL, True),
    "selectors/keyed.h": (["hst", "service_time"] + SEL, True),
    "lib/cpumask.c": (["io_affinity"] + SEL, True),
    "lib/cpumask.h": (["io_affinity"] + SEL, True),
    "selectors/selector.c": (["hst", "service_time", "queue_length",
                              "round_robin", "io_affinity"] + SEL, True),
    "sim/clock.c": (["clock", "sched_clock"], False),
    "sim/mpath.c": (["failover", "path_failures", "engine"], False),
    "sim/delay.c": (["dm_delay", "dm_delay_sync"], False),
    "sim/pgroup.c": (["failover", "path_failures"], False),
    "wheels/timer-classic.c": (["timer_classic", "timer_wheels",
                                "timer_wheel_random"], False),
    "wheels/timer-levels.c": (["timer_levels", "timer_wheels",
                               "timer_wheel_random"], False),
}


def log(msg):
    print(msg, flush=True)


def tree_files():
    """The project's files: git's list when this is a checkout, else
    everything outside build directories."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT,
                             capture_output=True, check=True).stdout
        return [f for f in out.decode().split("\0")
                if f and os.path.isfile(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs
                       if not x.startswith(("build", ".git"))]
            files += [os.path.relpath(os.path.join(d, n), ROOT)
                      for n in names]
        return files


def sync(src, files):
    """Make src a copy of the tree, touching only what differs."""
    keep = set(files)
    for f in files:
        a, b = os.path.join(ROOT, f), os.path.join(src, f)
        with open(a, "rb") as fa:
            data = fa.read()
        if os.path.exists(b):
            with open(b, "rb") as fb:
                if fb.read() == data:
                    continue
        os.makedirs(os.path.dirname(b), exist_ok=True)
        # now as its time, so that make rebuilds what depends on it
        shutil.copy(a, b)
    for d, dirs, names in os.walk(src):
        rel = os.path.relpath(d, src)
        if rel == BUILD or rel.startswith(BUILD + os.sep):
            dirs[:] = []
            continue
        for n in names:
            r = os.path.normpath(os.path.join(rel, n))
            if r not in keep:
                os.remove(os.path.join(d, n))


# the scratch builds take no flags of a make that runs this script
ENV = {k: v for k, v in os.environ.items()
       if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}


def run(cmd, cwd, timeout):
    """Exit status of cmd, or None when it ran past timeout (killed)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True,
                         env=ENV)
    try:
        return p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return None


class Worker:
    def __init__(self, n, scratch, crit_jobs):
        self.crit_jobs = "--jobs=%d" % crit_jobs
        self.dir = os.path.join(scratch, "w%d" % n)
        self.src = os.path.join(self.dir, "src")
        self.obj = os.path.join(self.src, BUILD)
        self.pristine = os.path.join(self.dir, "pristine")
        self.ksrc = os.path.join(self.dir, "kernel-src")
        # there while a mutant is in the copy
        self.dirty = os.path.join(self.dir, "dirty")
        self.timeouts = {}

    def make(self, *targets):
        return run(MAKE + [os.path.join(BUILD, t) for t in targets],
                   self.src, 900) == 0

    def prepare(self, files):
        os.makedirs(self.src, exist_ok=True)
        if os.path.exists(self.dirty):
            # a run stopped during a mutant: its objects may be left
            for d in (self.obj, self.pristine):
                if os.path.isdir(d):
                    shutil.rmtree(d)
            os.remove(self.dirty)
        sync(self.src, files)
        if not self.make("mpsim", "mpsim-tests", "kernel-check"):
            sys.exit("mutate: the unmutated tree does not build in " +
                     self.src)
        if os.path.exists(self.pristine):
            shutil.rmtree(self.pristine)
        shutil.copytree(self.obj, self.pristine, symlinks=True)

    def baseline(self, paths):
        """The checks on the unmutated tree, which must pass; their
        times set the time-outs (a mutant that loops is killed)."""
        for path in [None] + paths:
            for stage, cmd in self.stages(path, path is None):
                key = (stage, path) if stage == "suites" else stage
                if key in self.timeouts:
                    continue
                t = time.time()
                if run(cmd, self.src, 1800) != 0:
                    sys.exit("mutate: %s fails on the unmutated tree "
                             "(in %s)" % (" ".join(cmd), self.src))
                self.timeouts[key] = max(20.0, 4 * (time.time() - t))

    def stages(self, path, kc):
        tests = os.path.join(BUILD, "mpsim-tests")
        if path is not None:
            suites = SUITES.get(path, ([], False))[0]
            if suites:
                yield ("suites", [tests, self.crit_jobs, "--fail-fast",
                                  "--filter=@(%s)/*" % "|".join(suites)])
        yield ("all", [tests, self.crit_jobs, "--fail-fast"])
        if kc:
            yield ("kernel-check",
                   ["sh", "tests/kernel-check.sh", os.path.join(BUILD,
                    "mpsim"), os.path.join(BUILD, "kernel-check"),
                    self.ksrc])

    def restore(self, since_ns):
        """Put back every object and binary rebuilt since since_ns."""
        for d, dirs, names in os.walk(self.obj):
            for n in names:
                p = os.path.join(d, n)
                if os.lstat(p).st_mtime_ns < since_ns:
                    continue
                orig = os.path.join(self.pristine,
                                    os.path.relpath(p, self.obj))
                if os.path.exists(orig):
                    # by rename: a killed test binary may still be
                    # running its last process (ETXTBSY on a write)
                    shutil.copy2(orig, p + ".tmp")
                    os.replace(p + ".tmp", p)
                else:
                    os.remove(p)

    def try_mutant(self, m):
        """killed (with the stage), survived or stillborn."""
        path = os.path.join(self.src, m["file"])
        st = os.stat(path)
        with open(path) as f:
            text = f.read()
        lines = text.split("\n")
        assert lines[m["line"] - 1] == m["orig"]
        lines[m["line"] - 1] = m["mut"]
        since = time.time_ns()
        open(self.dirty, "w").close()
        try:
            with open(path, "w") as f:
                f.write("\n".join(lines))
            # newer than every object, whatever the clock's grain
            os.utime(path, ns=(since + 10**9, since + 10**9))
            if not self.make("mpsim-tests"):
                return "stillborn", ""
            kc = SUITES.get(m["file"], ([], False))[1]
            for stage, cmd in self.stages(m["file"], kc):
                if stage == "kernel-check" and \
                        not self.make("mpsim", "kernel-check"):
                    return "stillborn", ""
                key = (stage, m["file"]) if stage == "suites" else stage
                r = run(cmd, self.src, self.timeouts[key])
                if r != 0:
                    return "killed", stage if r is not None else \
                        stage + " (time-out)"
            return "survived", ""
        finally:
            with open(path, "w") as f:
                f.write(text)
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
            self.restore(since)
            os.remove(self.dirty)


def load_equivalent():
    """The ids of tests/mutate/equivalent.txt: `file: orig  =>  mut`
    lines, each after its reason (lines starting with #)."""
    ids = set()
    with open(os.path.join(HERE, "equivalent.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                ids.add(" ".join(line.split()).replace(" => ", "  =>  "))
    return ids


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--test-jobs", type=int, default=0,
                    help="Criterion's --jobs (default 2 / --jobs, at "
                    "least 1)")
    ap.add_argument("--match", action="append", default=[],
                    help="only the mutants whose id holds this text "
                    "(repeatable: any of them)")
    ap.add_argument("--retry", action="store_true",
                    help="only the mutants that survived the last run "
                    "(SCRATCH/survivors.txt)")
    ap.add_argument("--list", action="store_true",
                    help="print the mutants, build none")
    ap.add_argument("--scratch", default=os.path.join(ROOT, "build",
                                                      "mutate"))
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    a.scratch = os.path.abspath(a.scratch)

    equivalent = load_equivalent()
    surv_file = os.path.join(a.scratch, "survivors.txt")
    if a.retry:
        with open(surv_file) as f:
            a.match += [l.rstrip("\n") for l in f if l.strip()]
        if not a.match:
            log("mutate: no survivors to retry")
            return 0
    todo, per_file, seen_eq = [], {}, set()
    for f in a.files:
        with open(os.path.join(ROOT, f)) as fh:
            ms = gen.mutants(f, fh.read())
        per_file[f] = {"killed": 0, "survived": 0, "equivalent": 0,
                       "stillborn": 0, "time": 0.0}
        for m in ms:
            mid = gen.mutant_id(m)
            if a.match and not any(t in mid for t in a.match):
                continue
            if a.list:
                print("%s:%d: %s: %s" % (f, m["line"], m["op"],
                                         " ".join(m["mut"].split())))
                continue
            key = " ".join(mid.split()).replace(" => ", "  =>  ")
            if key in equivalent:
                seen_eq.add(key)
                per_file[f]["equivalent"] += 1
            else:
                todo.append(m)
    if a.list:
        return 0
    unused = {e for e in equivalent
              if e.split(":", 1)[0] in a.files} - seen_eq
    if not a.match:
        for e in sorted(unused):
            log("mutate: equivalent.txt names no mutant of today's "
                "tree: " + e)

    files = tree_files()
    t0 = time.time()
    jobs = max(1, a.jobs)
    # Criterion's own jobs: the machine's share is --jobs=2 in all
    tj = a.test_jobs or max(1, 2 // jobs)
    workers = [Worker(n, a.scratch, tj) for n in range(jobs)]
    for w in workers:
        w.prepare(files)
    workers[0].baseline(sorted({m["file"] for m in todo}))
    for w in workers[1:]:
        w.timeouts = workers[0].timeouts
    log("mutate: %d mutants to build (%d listed as equivalent), "
        "baseline %.0f s" % (len(todo), sum(v["equivalent"]
                                             for v in per_file.values()),
                             time.time() - t0))

    q = queue.Queue()
    for i, m in enumerate(todo):
        q.put((i, m))
    lock = threading.Lock()
    survivors = []

    def work(w):
        while True:
            try:
                i, m = q.get_nowait()
            except queue.Empty:
                return
            t = time.time()
            verdict, stage = w.try_mutant(m)
            dt = time.time() - t
            with lock:
                per_file[m["file"]][verdict] += 1
                per_file[m["file"]]["time"] += dt
                if verdict == "survived":
                    survivors.append(m)
                log("[%d/%d] %s:%d %s %s%s %.1fs" % (
                    i + 1, len(todo), m["file"], m["line"], m["op"],
                    verdict, " by " + stage if stage else "", dt))

    threads = [threading.Thread(target=work, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    log("")
    log("%-36s %7s %7s %9s %10s %9s %8s" % (
        "file", "mutants", "killed", "survived", "equivalent", "stillborn",
        "time s"))
    tot = {"killed": 0, "survived": 0, "equivalent": 0, "stillborn": 0,
           "time": 0.0}
    for f in a.files:
        c = per_file[f]
        n = c["killed"] + c["survived"] + c["equivalent"] + c["stillborn"]
        log("%-36s %7d %7d %9d %10d %9d %8.0f" % (
            f, n, c["killed"], c["survived"], c["equivalent"],
            c["stillborn"], c["time"]))
        for k in tot:
            tot[k] += c[k]
    log("%-36s %7d %7d %9d %10d %9d %8.0f" % (
        "total", sum(tot[k] for k in ("killed", "survived", "equivalent",
                                      "stillborn")),
        tot["killed"], tot["survived"], tot["equivalent"], tot["stillborn"],
        time.time() - t0))
    os.makedirs(a.scratch, exist_ok=True)
    with open(surv_file, "w") as f:
        for m in survivors:
            f.write(gen.mutant_id(m) + "\n")
    for m in sorted(survivors, key=lambda m: (m["file"], m["line"])):
        log("mutate: SURVIVED %s:%d (%s): %s" % (
            m["file"], m["line"], m["op"], " ".join(m["mut"].split())))
        log("    id: " + gen.mutant_id(m))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
