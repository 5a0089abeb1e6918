#!/usr/bin/env python3
"""
run.py: make mutate.  Builds every one-line mutant of the given files
(tests/mutate/mutants.py) and runs the fastest checks that can kill it,
in order: the Criterion suites of that file, (for the selectors) make
kernel-check's checker on the kernel's file of that selector, the rest
of the Criterion binary, then (for the selectors) tests/kernel-check.sh
whole.  The checker on one file takes a few seconds, the rest of the
Criterion binary near a minute on a loaded machine, and the checker
kills more of the mutants that pass their file's suites.
Prints, per file, how many mutants were killed, survived, are listed
as equivalent
(tests/mutate/equivalent.txt, not built) or did not compile
("stillborn"), and the time; exits 1 if any survived.

The tree is copied once to a scratch directory (build/mutate/wN/src) and
built there by make at -O1 without -flto, which links in a fraction of
the time.  make -n gives the command of each object and link; a mutant
is written over its file in the copy, the objects that include the file
(their .d files say which) are compiled with make's own command into
obj/mutant/, and the file is put back.  mpsim-tests is linked with
those objects in place of the unmutated ones, and mpsim and
kernel-check only for a mutant that gets past the Criterion suites: no
make and no rebuild of anything else, and the unmutated build is never
touched.  With --jobs=N, N copies run mutants side by side.

Usage: run.py [--jobs=N] [--match=TEXT] [--list] [--stop] FILE...
"""
import argparse
import os
import queue
import re
import shlex
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
# a mutant's objects and binaries, beside the unmutated ones
MUT = os.path.join(BUILD, "mutant")
MAKE = ["make", "--no-print-directory", "BUILD=" + BUILD, "CI=",
        "CFLAGS=-O1 -g"]

# gold links mpsim-tests in half the time of the default ld
GOLD = shutil.which("ld.gold") is not None

# The Criterion suites that test each file, run first (then the rest of
# the binary).
SEL = ["selectors", "call_sequence"]
SUITES = {
    "selectors/historical-service-time.c": ["hst"] + SEL,
    "selectors/service-time.c": ["service_time"] + SEL,
    "selectors/queue-length.c": ["queue_length"] + SEL,
    "selectors/round-robin.c": ["round_robin"] + SEL,
    "selectors/io-affinity.c": ["io_affinity"] + SEL,
    "selectors/keyed.h": ["hst", "service_time"] + SEL,
    "lib/cpumask.c": ["io_affinity"] + SEL,
    "lib/cpumask.h": ["io_affinity"] + SEL,
    "selectors/selector.c": ["hst", "service_time", "queue_length",
                             "round_robin", "io_affinity"] + SEL,
    "sim/clock.c": ["clock", "sched_clock"],
    # the engine's suites that run I/O through mpath and dm-delay (the
    # device's own records in the trace, the groups, the failures, the
    # device's cache, O_SYNC, the CPUs, the trace, Little's law's counts):
    # without them a mutant they kill runs most of the binary first
    "sim/mpath.c": ["mpath", "failover", "path_failures", "engine",
                    "dm_delay", "dm_delay_sync", "write_cache",
                    "sync_device", "cpu", "trace", "little"],
    "sim/delay.c": ["dm_delay", "dm_delay_sync", "write_cache",
                    "sync_device", "cpu", "trace", "path_failures"],
    # dmsetup: the groups as pg_setup builds them, in the status line
    "sim/pgroup.c": ["pgroup", "failover", "mpath", "path_failures",
                     "dmsetup"],
    # timers_cmd: `mpsim timers`, the experiment built on both wheels
    "wheels/timer-classic.c": ["timer_classic", "timer_wheels",
                               "timer_wheel_random", "timers_cmd"],
    "wheels/timer-levels.c": ["timer_levels", "timer_wheels",
                              "timer_wheel_random", "timers_cmd"],
}
# The kernel's files (drivers/md/dm-ps-NAME.c) whose selectors a mutant
# of the file can change, for make kernel-check's checker: it runs them
# beside mpsim's of the same name first, then kernel-check.sh whole.  The
# engine's files have none: kernel-check sets mpsim's selector beside the
# kernel's on the same engine, so an engine mutant changes both sides
# alike.
ALL_PS = ["round-robin", "queue-length", "service-time",
          "historical-service-time", "io-affinity"]
KSRC = {
    "selectors/historical-service-time.c": ["historical-service-time"],
    "selectors/service-time.c": ["service-time"],
    "selectors/queue-length.c": ["queue-length"],
    "selectors/round-robin.c": ["round-robin"],
    "selectors/io-affinity.c": ["io-affinity"],
    "selectors/keyed.h": ["historical-service-time", "service-time"],
    "lib/cpumask.c": ["io-affinity"],
    "lib/cpumask.h": ["io-affinity"],
    "selectors/selector.c": ALL_PS,
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


def run(cmd, cwd, timeout, env=None):
    """Exit status of cmd, or None when it ran past timeout (killed)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True,
                         env=env or ENV)
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
        self.ksrc = os.path.join(self.dir, "kernel-src")
        # the plugins of the kernel's files, kept from one mutant to the
        # next (the kernel's side never changes)
        self.cache = os.path.join(self.dir, "cache")
        self.timeouts = {}
        self.build_time = 0.0
        self.texts = {}

    def prepare(self, files):
        os.makedirs(self.src, exist_ok=True)
        # a run stopped during a mutant left it in the copy: sync puts
        # the file back, and make rebuilds what is older than it
        sync(self.src, files)
        targets = [os.path.join(BUILD, t) for t in
                   ("mpsim", "mpsim-tests", "kernel-check")]
        if run(MAKE + targets, self.src, 1800) != 0:
            sys.exit("mutate: the unmutated tree does not build in " +
                     self.src)
        os.makedirs(self.cache, mode=0o700, exist_ok=True)
        # the kernel's files, which the checker reads before any
        # kernel-check.sh has run in this copy (a fresh clone has none)
        if run(["sh", "tests/kernel-src.sh", self.ksrc], self.src, 1800) != 0:
            sys.exit("mutate: no kernel files in " + self.ksrc)
        self.read_commands(targets)
        self.read_deps()

    def read_commands(self, targets):
        """make's own commands (make -n -B): the compile of each object
        and the three links, so that a mutant is one compile and a link
        with the flags make would use."""
        out = subprocess.run(MAKE + ["-n", "-B"] + targets, cwd=self.src,
                             capture_output=True, text=True, env=ENV,
                             check=True).stdout
        self.compile, self.link = {}, {}
        for line in out.split("\n"):
            try:
                argv = shlex.split(line)
            except ValueError:
                continue
            if "-o" not in argv:
                continue
            target = argv[argv.index("-o") + 1]
            if "-c" in argv and target.endswith(".o"):
                self.compile[target] = argv
            elif target in targets:
                self.link[os.path.basename(target)] = argv
        missing = {"mpsim", "mpsim-tests", "kernel-check"} - set(self.link)
        if missing:
            sys.exit("mutate: no link command of %s in make -n" %
                     ", ".join(sorted(missing)))

    def read_deps(self):
        """Per source or header: the objects that include it (the .d
        files of -MMD)."""
        self.users, self.deps = {}, {}
        for obj in self.compile:
            d = os.path.join(self.src, obj[:-2] + ".d")
            try:
                with open(d) as f:
                    text = f.read()
            except OSError:
                continue
            rule = text.split("\n\n")[0].replace("\\\n", " ")
            self.deps[obj] = [os.path.normpath(dep)
                              for dep in rule.split(":", 1)[1].split()]
            for dep in self.deps[obj]:
                self.users.setdefault(dep, []).append(obj)

    def callers(self, path, func):
        """The objects a mutant of function func in header path can
        change: those one of whose sources, other than the header, names
        func.  A header's static inline function is compiled only into
        the objects that call it, and cpumask.h is included by most of
        the tree (a minute of compiles per mutant).  When the header
        itself calls func from another of its functions, every object
        that includes it."""
        users = self.users.get(path, [])
        if not path.endswith(".h") or not func:
            return set(users)
        word = re.compile(r"\b%s\b" % re.escape(func))
        text = self.read(path)
        if len(word.findall(text)) > 1:
            return set(users)
        return {o for o in users
                if any(word.search(self.read(d))
                       for d in self.deps[o] if d != path)}

    def read(self, path):
        if path not in self.texts:
            try:
                with open(os.path.join(self.src, path),
                          errors="replace") as f:
                    self.texts[path] = f.read()
            except OSError:
                self.texts[path] = ""
        return self.texts[path]

    def mutant_path(self, p):
        """Where a mutant's build puts what make builds at p."""
        return os.path.join(MUT, os.path.relpath(p, BUILD))

    def build(self, objs, name):
        """Link name (mpsim, mpsim-tests, kernel-check) with objs
        replaced by their mutant builds; False when it fails."""
        argv = list(self.link[name])
        i = argv.index("-o") + 1
        out = self.mutant_path(argv[i])
        argv[i] = out + ".tmp"
        argv = [self.mutant_path(a) if a in objs else a for a in argv]
        if GOLD:
            argv.insert(1, "-fuse-ld=gold")
        if run(argv, self.src, 600) != 0:
            return False
        # by rename: a test binary killed at a time-out may still be
        # running its last process (ETXTBSY on a write)
        os.replace(os.path.join(self.src, out + ".tmp"),
                   os.path.join(self.src, out))
        return True

    def baseline(self, paths):
        """The checks on the unmutated tree, which must pass; their
        times set the time-outs (a mutant that loops is killed)."""
        bins = {n: os.path.join(BUILD, n) for n in self.link}
        todo = [("all", None)] + [("suites", p) for p in paths]
        todo += [("kc-file", p) for p in paths if p in KSRC]
        if any(p in KSRC for p in paths):
            todo.append(("kernel-check", None))
        for stage, path in todo:
            cmd = self.command(stage, path, bins)
            if cmd is None:
                continue
            t = time.time()
            if run(cmd, self.src, 1800, self.env()) != 0:
                sys.exit("mutate: %s fails on the unmutated tree "
                         "(in %s)" % (" ".join(cmd), self.src))
            dt = time.time() - t
            log("mutate: unmutated %s%s: %.1f s" % (
                stage, " of " + path if path else "", dt))
            self.timeouts[(stage, path)] = max(20.0, 4 * dt)

    def env(self):
        e = dict(ENV)
        e["XDG_CACHE_HOME"] = self.cache
        return e

    def command(self, stage, path, bins):
        """The command of a check; None when the file has none of that
        kind."""
        tests = bins["mpsim-tests"]
        suites = SUITES.get(path, [])
        if stage == "suites":
            if not suites:
                return None
            return [tests, self.crit_jobs, "--fail-fast",
                    "--filter=@(%s)/*" % "|".join(suites)]
        if stage == "all":
            return [tests, self.crit_jobs, "--fail-fast"]
        if stage == "rest":
            # the suites of the file have passed already
            return [tests, self.crit_jobs, "--fail-fast"] + (
                ["--filter=!(%s)/*" % "|".join(suites)] if suites else [])
        if stage == "kc-file":
            return [bins["kernel-check"], "--ops=1000000"] + [
                os.path.join(self.ksrc, "dm-ps-%s.c" % k)
                for k in KSRC[path]]
        if stage == "kernel-check":
            return ["sh", "tests/kernel-check.sh", bins["mpsim"],
                    bins["kernel-check"], self.ksrc]
        raise ValueError(stage)

    def try_mutant(self, m):
        """killed (with the stage), survived or stillborn."""
        path = os.path.join(self.src, m["file"])
        st = os.stat(path)
        with open(path) as f:
            text = f.read()
        lines = text.split("\n")
        assert lines[m["line"] - 1] == m["orig"]
        lines[m["line"] - 1] = m["mut"]
        objs = self.callers(os.path.normpath(m["file"]), m.get("func"))
        t0 = time.time()
        bins = {n: self.mutant_path(os.path.join(BUILD, n))
                for n in self.link}
        try:
            with open(path, "w") as f:
                f.write("\n".join(lines))
            for o in sorted(objs):
                argv = list(self.compile[o])
                i = argv.index("-o") + 1
                argv[i] = self.mutant_path(o)
                os.makedirs(os.path.join(self.src,
                                         os.path.dirname(argv[i])),
                            exist_ok=True)
                if run(argv, self.src, 600) != 0:
                    return "stillborn", ""
        finally:
            with open(path, "w") as f:
                f.write(text)
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        if not self.build(objs, "mpsim-tests"):
            return "stillborn", ""
        self.build_time = time.time() - t0
        linked = {"mpsim-tests"}
        for stage in ("suites", "kc-file", "rest", "kernel-check"):
            if stage.startswith("k"):
                if m["file"] not in KSRC:
                    continue
                need = {"kernel-check"} | (
                    {"mpsim"} if stage == "kernel-check" else set())
                for b in sorted(need - linked):
                    if not self.build(objs, b):
                        return "stillborn", ""
                    linked.add(b)
            cmd = self.command(stage, m["file"], bins)
            if cmd is None:
                continue
            limit = self.timeouts[("all" if stage == "rest" else stage,
                                   None if stage in ("rest",
                                                     "kernel-check")
                                   else m["file"])]
            r = run(cmd, self.src, limit, self.env())
            if r != 0:
                return "killed", stage if r is not None else \
                    stage + " (time-out)"
        return "survived", ""


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
            w.build_time = 0.0
            verdict, stage = w.try_mutant(m)
            dt = time.time() - t
            with lock:
                per_file[m["file"]][verdict] += 1
                per_file[m["file"]]["time"] += dt
                if verdict == "survived":
                    survivors.append(m)
                log("[%d/%d] %s:%d %s %s%s %.1fs (build %.1fs)" % (
                    i + 1, len(todo), m["file"], m["line"], m["op"],
                    verdict, " by " + stage if stage else "", dt,
                    w.build_time))
                if verdict == "survived":
                    log("    id: " + gen.mutant_id(m))

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
