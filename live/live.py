#!/usr/bin/env python3
# live.py: the same dm table and fio job on a running Linux 6.1 (Debian's
# user-mode-linux, booted as an ordinary program) and in mpsim, side by
# side.
#
#   live.py check [--grid=FILE] [--cases=GLOB,...] [--repeats=N] [--boots=N]
#                 [--results=FILE]                               (make live-check)
#   live.py run --scenario=FILE [--job=FILE.fio] [--selector-source=FILE.c]
#               [--repeats=N] [--boots=N] [mpsim options]         (mpsim live)
#
# A case is a scenario (its [multipath] table and [path] sections) and fio
# jobs.  Each [path] becomes, in the guest, a dm-delay target with the
# path's delays over a RAM disk (brd: write-through, completes inside
# submit_bio) or, with write_cache = back, over a loop device on a tmpfs
# file (a volatile write cache).  The table's words naming a path are
# replaced by that dm-delay device's MAJ:MIN; mpsim then runs the table the
# guest loaded, word for word, with each path's dev set to the same number.
# Without a table the case has one path and fio runs on its dm-delay device.
#
# Each case runs REPEATS times, from a fresh table each time, its runs
# spread over BOOTS boots in turn (3 for check, 1 for run): runs in one
# boot agree more closely than runs in different boots, so a check's
# spread is taken over boots.  A case's fio jobs (stonewalled phases) run
# in order on the same table, so a selector's state carries from one
# phase to the next as in the kernel.
# mpsim's figure is taken as one more run of the kernel: it must lie in the
# 95 % prediction interval of the repeats, mean +- t(0.975, n-1) * sd *
# sqrt(1 + 1/n) (k = 4.97 sd for n = 3), widened by the figure's
# resolution (a count's, what one I/O is worth: 1/runtime in IOPS, 1/I/Os
# in a share; a p99's, one bucket of fio's histogram), compared as
# printed (shares to 3 decimals, IOPS to 1, latency to 1 us).  min..max is printed beside it,
# but is no test: three runs' min..max holds a fourth run of the same
# kernel only half the time.
import atexit
import fnmatch
import json
import math
import os
import re
import shlex
import shutil
import stat
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = "6.1"
# the unit of /proc/stat's times: USER_HZ, 100 on every architecture
USER_HZ = 100.0
# the guest kernel's tick: Debian's UML is built with HZ=100 (mpsim is run
# with --hz=100 beside it)
HZ = 100
# phase_busy's slack: four readings of 0.01 s each (two snapshots' busy,
# each up less idle less iowait, less the snapshot's own cost)
BUSY_RES = 0.04


class BadInput(Exception):
    pass


def die_bad(msg):
    print("mpsim: live: " + msg, file=sys.stderr)
    sys.exit(2)


def note(msg):
    print("live: " + msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- ini files

def strip_comment(line):
    # fio's and mpsim's: ';' or '#' starts a comment, also at the end
    m = re.search(r"(^|\s)[;#]", line)
    return (line[:m.start()] if m else line).strip()


def read_sections(path):
    """[(name, [(key, value or None)], [raw lines])] in file order."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror))
    out = []
    cur = None
    for n, raw in enumerate(lines, 1):
        line = strip_comment(raw)
        if not line:
            if cur is not None:
                cur[2].append(raw)
            continue
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            cur = (m.group(1).strip(), [], [raw])
            out.append(cur)
            continue
        if cur is None:
            raise BadInput("%s:%d: a key before any [section]" % (path, n))
        k, eq, v = line.partition("=")
        cur[1].append((k.strip(), v.strip() if eq else None))
        cur[2].append(raw)
    return out


def delay_ms(v, where):
    m = re.fullmatch(r"(\d+)(ms)?", v.strip())
    if not m:
        raise BadInput("%s: '%s' is not whole milliseconds" % (where, v))
    return int(m.group(1))


# ---------------------------------------------------------------- a case

PATH_KEYS = ("delay", "read_delay", "write_delay", "flush_delay",
             "write_cache", "dev", "service")


class Case:
    """What the guest builds and what mpsim is given, for one case."""

    def __init__(self, name, scenario, job, opts, repeats):
        self.name = name
        self.scenario = scenario
        self.job = job
        self.opts = list(opts)     # mpsim options, also read here
        self.repeats = repeats
        self.warnings = []         # said once the input is taken
        self.cpu = False           # mpsim given the CPU time measured (judge)
        self.jitter = False        # p99 out of scope (the grid's `jitter`)
        self.diagnostic = False    # reported, not checked (`diagnostic`)
        self.mixed = set()         # phases whose tick pattern UML's host decides (mixed=)
        self.paths = []            # [{name, read, write, flush, cache, dev}]
        self.table = None
        self.jobtext = None        # the fio job file mpsim reads
        self.njobs = 0
        self.mpsim_scenario = scenario
        self.source = None         # --selector-source: mpsim runs the short form
        self.kdevs = None          # the guest's path devices and table (run_cases)
        self.ktable = None
        self._read()
        for o in self.opts:
            if o.startswith("--selector-source="):
                self.source = o.split("=", 1)[1]
        if self.source and self.table:
            self._short_form()

    def _read(self):
        secs = read_sections(self.scenario)
        table = None
        jobsecs = []
        paths = {}
        order = []
        for name, kv, raw in secs:
            if name == "multipath":
                for k, v in kv:
                    if k == "table":
                        table = v
            elif name.startswith("path "):
                pn = name[5:].strip()
                paths[pn] = dict(kv)
                order.append(pn)
            else:
                jobsecs.append(raw)
        over_table = None
        for o in self.opts:
            m = re.fullmatch(r"--path\.([^.=]+)\.([a-z_]+)=(.*)", o)
            if m:
                if m.group(1) not in paths:
                    raise BadInput("%s: no [path %s] in %s" % (o, m.group(1), self.scenario))
                paths[m.group(1)][m.group(2)] = m.group(3)
                continue
            m = re.fullmatch(r"--(delay|read_delay|write_delay|flush_delay|write_cache|service)=(.*)", o)
            if m:
                for p in paths.values():
                    p[m.group(1)] = m.group(2)
                continue
            m = re.fullmatch(r"--table=(.*)", o)
            if m:
                over_table = m.group(1)
            m = re.fullmatch(r"--(hz|kernel|mode)=(.*)", o)
            if m:
                raise BadInput("%s: the kernel is Linux %s at HZ=100 in bio mode; mpsim is run so" % (o, KERNEL))
        if over_table is not None:
            table = over_table
        if not order:
            raise BadInput("%s: no [path] section" % self.scenario)
        if len(order) > 8:
            raise BadInput("%s: %d paths; the guest has 8 RAM disks" % (self.scenario, len(order)))
        for i, pn in enumerate(order):
            p = paths[pn]
            w = "%s: [path %s]" % (self.scenario, pn)
            d = delay_ms(p.get("delay", "0"), w + " delay")
            r = delay_ms(p.get("read_delay", str(d)), w + " read_delay")
            wr = delay_ms(p.get("write_delay", str(d)), w + " write_delay")
            fl = delay_ms(p.get("flush_delay", str(wr)), w + " flush_delay")
            cache = p.get("write_cache", "through")
            if cache not in ("through", "back"):
                raise BadInput("%s write_cache: '%s' (through or back)" % (w, cache))
            if p.get("service", "sync") != "sync":
                self.warnings.append("%s: service = %s, but the kernel's device is %s, which has no service time to set"
                     % (w, p["service"], "a RAM disk" if cache == "through" else "a loop device"))
            self.paths.append(dict(name=pn, read=r, write=wr, flush=fl,
                                   cache=cache, dev=p.get("dev"), index=i))
        if table is None:
            if len(order) != 1:
                raise BadInput("%s: %d paths and no table: give the kernel's table line (table = ...)"
                               % (self.scenario, len(order)))
        else:
            self.table = self._kernel_table(table)
        # the jobs: a job file, or the scenario's own sections (which keep
        # mpsim's default engine, libaio: said here, since a job file's is psync)
        if self.job:
            try:
                with open(self.job) as f:
                    self.jobtext = f.read()
            except OSError as e:
                raise BadInput("%s: %s" % (self.job, e.strerror))
        else:
            if not jobsecs:
                raise BadInput("%s: no fio job: add job sections or give --job=FILE.fio" % self.scenario)
            self.jobtext = "[global]\nioengine=libaio\n" + "\n".join("\n".join(r) for r in jobsecs) + "\n"
        self.jobs = fio_jobs(self.jobtext, self.job or self.scenario)
        # phases: a job with stonewall starts one; fio reports each as a group
        self.phases = []
        for i, (name, opts, start) in enumerate(self.jobs):
            if i == 0 or start:
                self.phases.append([])
            self.phases[-1].append(i)
        self.njobs = len(self.phases)
        self.jobnames = [self.jobs[ph[0]][0] for ph in self.phases]
        self.depths = [job_iodepth(self.jobs[ph[0]][1], self.job or self.scenario)
                       for ph in self.phases]
        self.think = [job_think_us(self.jobs[ph[0]][1], self.job or self.scenario)
                      for ph in self.phases]

    def _short_form(self):
        """mpsim reads a table's selector by name, from its own: with a
        source file it runs the table's one group in the short form
        (selector_args, path_args, mode), from a copy of the scenario
        without the table line."""
        w = self.table.split()[3:]
        try:
            nf = int(w[0])
            feats = w[1:1 + nf]
            w = w[1 + nf:]
            w = w[1 + int(w[0]):]
            ngroups = int(w[0])
            w = w[2:]
            if ngroups != 1:
                raise BadInput("%s: with --selector-source the table has one priority group" % self.scenario)
            na = int(w[1])
            sel_args = w[2:2 + na]
            w = w[2 + na:]
            npaths, npa = int(w[0]), int(w[1])
            w = w[2:]
            pargs = {}
            for _ in range(npaths):
                pargs[w[0][1:]] = w[1:1 + npa]
                w = w[1 + npa:]
        except (ValueError, IndexError):
            raise BadInput("%s: table: not a multipath table line mpsim live can read" % self.scenario)
        opts = ["--mode=" + ("bio" if "queue_mode" in feats and "bio" in feats else "request")]
        if "queue_if_no_path" in feats:
            opts.append("--queue_if_no_path=1")
        opts.append("--selector_args=" + " ".join(sel_args))
        opts += ["--path.%s.path_args=%s" % (n, " ".join(a)) for n, a in pargs.items() if a]
        out = []
        sec = None
        with open(self.scenario) as f:
            for raw in f:
                line = strip_comment(raw)
                m = re.match(r"^\[(.+)\]$", line)
                if m:
                    sec = m.group(1).strip()
                if sec == "multipath" and re.match(r"^table\s*=", line):
                    continue
                out.append(raw)
        d = tempfile.mkdtemp(prefix="mpsim-live-")
        atexit.register(shutil.rmtree, d, True)
        self.mpsim_scenario = os.path.join(d, os.path.basename(self.scenario))
        with open(self.mpsim_scenario, "w") as f:
            f.writelines(out)
        self.short_opts = opts
        self.table_src = None

    def mpsim_args(self, table, devs):
        """How mpsim is told the scenario, the table and the paths."""
        a = ["--scenario=" + self.mpsim_scenario]
        if self.source and self.table:
            return a + self.short_opts
        if table:
            a.append("--table=" + table)
            a += ["--path.%s.dev=%s" % (n, d) for n, d in devs.items()]
        return a

    def _kernel_table(self, t):
        words = t.split()
        if "multipath" not in words:
            words = ["0", "65536", "multipath"] + words
        else:
            i = words.index("multipath")
            words = ["0", "65536"] + words[i:]
        names = {}
        for p in self.paths:
            names[p["name"]] = p["name"]
            names["/dev/" + p["name"]] = p["name"]
            if p["dev"]:
                names[p["dev"]] = p["name"]
        used = set()
        out = []
        for w in words:
            if w in names:
                out.append("@" + names[w])
                used.add(names[w])
            else:
                out.append(w)
        missing = [p["name"] for p in self.paths if p["name"] not in used]
        if missing:
            raise BadInput("%s: table: no word names [path %s] (its name or its dev)"
                           % (self.scenario, missing[0]))
        return " ".join(out)

    def backing(self, p):
        return ("/dev/ram%d" if p["cache"] == "through" else "/dev/loop%d") % p["index"]

    def delay_table(self, p):
        d = self.backing(p)
        return "0 65536 delay %s 0 %d %s 0 %d %s 0 %d" % (d, p["read"], d, p["write"], d, p["flush"])

    def guest_table(self):
        t = self.table
        for p in self.paths:
            t = re.sub(r"@%s(?=\s|$)" % re.escape(p["name"]), "${DEV_p%d}" % p["index"], t)
        return t

    def load_script(self, ci, r, gout):
        """What the first job's exec_prerun sources: this case's tables."""
        # the last phase before this case ends here, not after the
        # reloads below (each a process, which UML's CPU starts slowly)
        s = ["snap pre-%d:%d" % (ci, r)]
        for p in self.paths:
            s.append('dmsetup reload p%d --table "%s" && dmsetup resume p%d'
                     % (p["index"], self.delay_table(p), p["index"]))
        if self.table:
            s.append('dmsetup reload mp --table "%s" && dmsetup resume mp' % self.guest_table())
            # as the first run in this boot loaded it
            s.append('[ -e "%s/table-%03d" ] || dmsetup table mp > "%s/table-%03d"'
                     % (gout, ci, gout, ci))
        s.append("snap %d:%d:0" % (ci, r))
        return "\n".join(s) + "\n"

    def guest_jobs(self, ci, r, guest_sh, run, load):
        """This case's jobs for the group's fio file: each job whole, with
        what its [global]s gave it, so that nothing leaks to the next case."""
        out = []
        for k, ph in enumerate(self.phases):
            for n, j in enumerate(ph):
                name, opts, _ = self.jobs[j]
                out.append("[c%03d-r%d-%s]" % (ci, r, name))
                for key, v in opts:
                    if key in DROP:
                        continue
                    out.append(key if v is None else "%s=%s" % (key, v))
                if n == 0:
                    out.append("stonewall")
                    if k == 0:
                        out.append("exec_prerun=sh %s %s load %s" % (guest_sh, run, load))
                    else:
                        out.append("exec_prerun=sh %s %s snap %d:%d:%d" % (guest_sh, run, ci, r, k))
                    # a phase of one job ends with it, before fio sets up
                    # the next (0.4 s of UML's time a phase): its counters
                    # and CPU busy stop here (read_group takes the next
                    # snapshot); a phase of several runs to the next one's
                    if len(ph) == 1:
                        out.append("exec_postrun=sh %s %s snap e%d:%d:%d" % (guest_sh, run, ci, r, k))
                out.append("")
        return "\n".join(out) + "\n"


def job_iodepth(opts, where):
    """fio's iodepth of a job from its effective options (the last one
    given wins; 1 when none is)."""
    d = 1
    for k, v in opts:
        if k == "iodepth":
            try:
                d = int(v)
            except (TypeError, ValueError):
                raise BadInput("%s: iodepth=%s: not a whole number" % (where, v))
            if d < 1:
                raise BadInput("%s: iodepth=%s: at least 1" % (where, v))
    return d


# fio options of a case's jobs that the combined file sets itself
DROP = ("filename", "stonewall", "wait_for_previous", "exec_prerun", "exec_postrun",
        "group_reporting", "new_group", "thread")


def fio_jobs(text, where):
    """[(name, effective options, starts a phase)] of a fio job file: each
    job's options are the [global]s above it, then its own."""
    glob = []
    jobs = []
    cur = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw)
        if not line:
            continue
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            name = m.group(1).strip()
            if name == "global":
                cur = glob
            else:
                cur = list(glob)
                jobs.append((name, cur))
            continue
        if cur is None:
            raise BadInput("%s:%d: an option before any section" % (where, n))
        if line.startswith("include "):
            raise BadInput("%s:%d: include: give the jobs in one file" % (where, n))
        k, eq, v = line.partition("=")
        cur.append((k.strip(), v.strip() if eq else None))
    out = []
    for name, opts in jobs:
        keys = {k for k, _ in opts}
        if "new_group" in keys and not keys & {"stonewall", "wait_for_previous"}:
            raise BadInput("%s: [%s]: new_group without stonewall: a phase here is a stonewall group" % (where, name))
        out.append((name, opts, bool(keys & {"stonewall", "wait_for_previous"})))
    if not out:
        raise BadInput("%s: no fio job section" % where)
    return out


# ---------------------------------------------------------------- the build cache
#
# Every directory the harness builds in or keeps things in (mpsim live's
# build cache, LIVE_BUILD, make live-check's build/live, and in it the
# module trees, modules/, uml-tmp/ and the runs) follows the plugin
# cache's rule (selectors/ksource.c, docs/safety.md): a directory of ours
# alone, mode 0700, made so or checked with lstat() (no link followed),
# in directories no other user can write.  Anything else is bad input,
# one line and status 2, before anything is built or run.  What
# build-module.sh reuses in it is keyed by what made it.

# what the harness keeps in the build directory: made if missing (the
# first two), else checked
BUILD_DIRS = ("modules", "uml-tmp", "run", "run-more", "mpsim-work")


def cache_dir():
    """mpsim live's build cache without LIVE_BUILD: live/ in the plugin
    cache's directory (ps_source_cache_dir): $XDG_CACHE_HOME/mpsim, else
    ~/.cache/mpsim, else $TMPDIR/mpsim-UID (/tmp without TMPDIR); a
    relative one is unset, as in the XDG rules."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    home = os.environ.get("HOME", "")
    tmp = os.environ.get("TMPDIR", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, "mpsim", "live")
    if home.startswith("/"):
        return os.path.join(home, ".cache", "mpsim", "live")
    return os.path.join(tmp if tmp.startswith("/") else "/tmp", "mpsim-%d" % os.getuid(), "live")


def not_ours(st, isdir=True):
    """Why st (an lstat) is not ours alone, or None."""
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link"
    if not (stat.S_ISDIR if isdir else stat.S_ISREG)(st.st_mode):
        return "not a directory" if isdir else "not a regular file"
    if st.st_uid != os.geteuid():
        return "owned by another user"
    if st.st_mode & 0o022:
        return "writable by others"
    return None


def others_write(st):
    """Whether another user can write the directory st, and so put
    another in the place of what it holds: one of a user other than us
    or root, or one anyone may write that is not sticky."""
    return st.st_uid not in (os.geteuid(), 0) or \
        bool(st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX)


def make_dir(path):
    """path made a directory, mode 0700, unless something is there
    already (which the caller then checks); else status 2."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as e:
        die_bad("cannot create %s: %s" % (path, e.strerror))


def private_dir(path, own, hint):
    """path made a directory of ours alone, or refused (status 2, hint
    the way out); returns it with the links above it resolved, the path
    to use from then on.  The last own names of path are mpsim's: each is
    made (mode 0700) if missing, else taken only if lstat() finds a
    directory of ours, not a link, that no one else can write, and set to
    mode 0700.  The directory above them is the user's (a link there is
    followed, once, here): neither it nor any directory above it may be
    writable by another user.  A part of it that is missing is made as
    mpsim's names are."""
    head, names = os.path.abspath(path), []
    for _ in range(own):
        head, name = os.path.split(head)
        names.insert(0, name)
    parts = [p for p in os.path.realpath(head).split("/") if p]
    base = "/"
    while parts and os.path.lexists(os.path.join(base, parts[0])):
        base = os.path.join(base, parts.pop(0))
    names = parts + names
    d = base
    while True:
        try:
            st = os.stat(d)
        except OSError as e:
            die_bad("%s: %s" % (d, e.strerror))
        if others_write(st):
            die_bad("%s: another user can write %s, which holds the build cache: refused (%s)"
                    % (path, d, hint))
        if d == "/":
            break
        d = os.path.dirname(d)
    cur = base
    for name in names:
        cur = os.path.join(cur, name)
        make_dir(cur)
        st = os.lstat(cur)
        why = not_ours(st)
        if why:
            die_bad("%s: the build cache is %s: refused (%s)" % (cur, why, hint))
        if stat.S_IMODE(st.st_mode) != 0o700:
            os.chmod(cur, 0o700)
    return cur


def private_entry(path, isdir=True, make=False):
    """path, in a private directory: made (a directory, mode 0700) if
    make and missing; if it is there, it must be ours alone (lstat: not
    a link), else it is refused, status 2.  A directory is set to mode
    0700."""
    if make:
        make_dir(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    why = not_ours(st, isdir)
    if why:
        die_bad("%s: %s, in the build cache: refused (remove it)" % (path, why))
    if isdir and stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(path, 0o700)


def build_dir(default, own, hint):
    """The build directory: LIVE_BUILD, else default (own of its names
    mpsim's), made or checked by the rule above with what the harness
    keeps in it (BUILD_DIRS); its path, links above it resolved."""
    given = os.environ.get("LIVE_BUILD")
    if given:
        build = private_dir(given, 1, "set LIVE_BUILD to a directory of yours")
    else:
        build = private_dir(default, own, hint)
    for i, d in enumerate(BUILD_DIRS):
        private_entry(os.path.join(build, d), make=i < 2)
    return build


# ---------------------------------------------------------------- the guest

def uml_binary():
    for d in os.environ.get("PATH", "").split(":") + ["/usr/bin"]:
        f = os.path.join(d, "linux.uml")
        if os.access(f, os.X_OK):
            return f
    return None


def uml_release():
    try:
        rel = sorted(os.listdir("/usr/lib/uml/modules"))
    except OSError:
        rel = []
    return rel[-1] if rel else None


def build_modules(build, sources):
    private_entry(os.path.join(build, "modules"), make=True)
    cmd = ["sh", os.path.join(HERE, "build-module.sh"), build] + sources
    r = subprocess.run(cmd)
    if r.returncode == 2:
        sys.exit(2)
    if r.returncode != 0:
        print("mpsim: live: building the modules failed", file=sys.stderr)
        sys.exit(1)


def boot(run, build, modules, timeout):
    """Boot UML once on RUN's case scripts; return the wall time."""
    uml = uml_binary()
    rel = uml_release()
    os.makedirs(os.path.join(run, "root", "lib", "modules"), exist_ok=True)
    link = os.path.join(run, "root", "lib", "modules", rel)
    if not os.path.islink(link):
        os.symlink(os.path.join("/usr/lib/uml/modules", rel), link)
    md = os.path.join(run, "modules")
    os.makedirs(md, exist_ok=True)
    # in the order given: a selector built from the user's source before
    # the package's of the same name, which then fails to register; each
    # one build-module.sh made (a file of ours, not a link)
    for i, m in enumerate(modules):
        private_entry(m, isdir=False)
        shutil.copy(m, os.path.join(md, "%02d-%s" % (i, os.path.basename(m))))
    init = os.path.join(run, "init")
    with open(init, "w") as f:
        f.write("#!/bin/sh\nexec sh %s %s\n" % (os.path.join(HERE, "guest.sh"), run))
    os.chmod(init, 0o755)
    # UML's temporary files (its memory): a directory of ours alone
    shm = os.path.join(build, "uml-tmp")
    private_entry(shm, make=True)
    env = dict(os.environ, TMPDIR=shm)
    t0 = time.time()
    with open(os.path.join(run, "console.log"), "w") as con:
        try:
            subprocess.run([uml, "mem=512M", "rootfstype=hostfs", "rootflags=/", "rw",
                            "init=" + init, "con=null", "con0=null,fd:1", "ssl=null"],
                           stdin=subprocess.DEVNULL, stdout=con, stderr=subprocess.STDOUT,
                           env=env, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            print("mpsim: live: the guest did not end within %d s (see %s/console.log)" % (timeout, run),
                  file=sys.stderr)
            sys.exit(1)
    return time.time() - t0


# ---------------------------------------------------------------- figures

def fio_phase(job):
    """IOPS, mean and p99 latency (us) of one fio job (all directions),
    its I/Os (n), its mean submission latency (slat, us), and its tail:
    {percentile: latency in us} from the 99.9th on, of a job
    of one direction (steal_fit)."""
    ios = 0
    iops = 0.0
    lat_sum = 0.0
    slat_sum = 0.0
    p99 = None
    tail = {}
    dirs = 0
    for d in ("read", "write", "trim", "sync"):
        x = job.get(d)
        if not x:
            continue
        n = x.get("total_ios", 0) if d != "sync" else x.get("total_ios", 0)
        if not n:
            continue
        dirs += 1
        ios += n
        iops += x.get("iops", 0.0)
        lat = x.get("lat_ns", {})
        lat_sum += lat.get("mean", 0.0) * n
        # fio's submission latency: its io_submit for an asynchronous
        # engine, 0 for a synchronous one (the system call is the I/O)
        slat_sum += x.get("slat_ns", {}).get("mean", 0.0) * n
        pc = lat.get("percentile", {})
        p99 = pc.get("99.000000")
        tail = {float(q): v / 1000.0 for q, v in pc.items() if float(q) >= 99.9}
    rt = job.get("job_runtime", 0) / 1000.0
    if ios == 0:
        return dict(iops=0.0, mean=None, p99=None, rt=rt, tail={}, n=0)
    return dict(iops=iops, mean=lat_sum / ios / 1000.0, rt=rt, n=ios,
                slat=slat_sum / ios / 1000.0,
                p99=(p99 / 1000.0 if dirs == 1 and p99 is not None else None),
                tail=tail if dirs == 1 else {})


def read_stat(path):
    """{tag: {path device: ios}} and the tags in order; ios are the reads
    and writes completed (fields 1 and 5 of the stat file), and
    "DEVICE.ticks" their ticks (fields 4 and 8, ms).  The guest's
    /proc/uptime is kept as "cpu": (busy, all) in seconds, busy being its
    time up less its time idle and in iowait (/proc/stat's cpu line, in
    USER_HZ, 100 a second): a CPU with nothing to run is idle whether or
    not a task waits in io_schedule for it."""
    snaps = {}
    order = []
    cur = None
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "--":
                cur = {}
                snaps[w[1]] = cur
                order.append(w[1])
                continue
            if w[0] == "uptime":
                up, idle = float(w[1]), float(w[2])
                cur["cpu"] = (up - idle, up)
                continue
            if w[0] == "stat":
                # stat cpu user nice system idle iowait ...
                if "cpu" in cur and len(w) > 6 and w[1] == "cpu":
                    busy, up = cur["cpu"]
                    cur["cpu"] = (busy - int(w[6]) / USER_HZ, up)
                continue
            cur[w[0]] = int(w[1]) + int(w[5])
            # the device's own time per I/O: read and write ticks (ms;
            # bio-based dm counts whole jiffies from map to completion)
            if len(w) > 8:
                cur[w[0] + ".ticks"] = int(w[4]) + int(w[8])
    return snaps, order


def phase_busy(start, end, shell):
    """The share of the guest CPU's time busy from snapshot start to end,
    each (busy, all) in seconds, less shell, what one snapshot's process
    costs (busy, all).  Each figure is read in hundredths of a second,
    so busy may come out up to BUSY_RES short of 0 or past all; beyond
    that the window is not a share (the snapshot's cost varies), and it is
    None, reported as unknown rather than as 0 or 1."""
    busy, span = (b - a - c for a, b, c in zip(start, end, shell))
    if span <= 0 or not -BUSY_RES <= busy <= span + BUSY_RES:
        return None
    return min(max(busy / span, 0.0), 1.0)


def read_group(gout, items, cases):
    """{(case, repeat): [phase figures]} from one group's fio output and
    counters, or an error string for the whole group."""
    try:
        with open(os.path.join(gout, "done")) as f:
            f.read()
    except OSError:
        return "the guest did not run this group (see %s)" % os.path.join(os.path.dirname(gout), "guest.log")
    try:
        with open(os.path.join(gout, "fio.json")) as f:
            txt = f.read()
        fj = json.loads(txt[txt.index("{"):])
    except (OSError, ValueError):
        try:
            err = open(os.path.join(gout, "fio.err")).read().strip().splitlines()
        except OSError:
            err = []
        return "fio: " + (err[-1] if err else "no output")
    entries = fj.get("jobs", [])
    phases = [(ci, r, k) for ci, r in items for k in range(cases[ci].njobs)]
    if len(entries) != len(phases):
        return "fio reported %d groups for %d phases" % (len(entries), len(phases))
    snaps, order = read_stat(os.path.join(gout, "stat"))
    # one snapshot's own cost, busy and all (guest.sh runfio): in every
    # phase's window once, the start of the process that takes the next
    shell = (0.0, 0.0)
    if "cpu" in snaps.get("shell-0", {}) and "cpu" in snaps.get("shell-1", {}):
        shell = tuple(b - a for a, b in zip(snaps["shell-0"]["cpu"], snaps["shell-1"]["cpu"]))
    res = {}
    for e, (ci, r, k) in zip(entries, phases):
        c = cases[ci]
        tag = "%d:%d:%d" % (ci, r, k)
        if tag not in snaps:
            return "no counters at the start of %s" % tag
        nxt = snaps[order[order.index(tag) + 1]]
        ph = fio_phase(e)
        ph["ios"] = {p["name"]: nxt["p%d" % p["index"]] - snaps[tag]["p%d" % p["index"]] for p in c.paths}
        # jiffies per bio on each path through a delay: the ticks its
        # dm-delay device counted, over its I/Os (HZ=100: 10 ms a jiffy);
        # which pattern of flushes the phase kept (mixed_note)
        ph["jiffies"] = {}
        for p in c.paths:
            dev = "p%d" % p["index"]
            n = ph["ios"][p["name"]]
            if path_delayed(p) and n and dev + ".ticks" in nxt and dev + ".ticks" in snaps[tag]:
                ph["jiffies"][p["name"]] = (nxt[dev + ".ticks"] - snaps[tag][dev + ".ticks"]) \
                    / n / (1000.0 / HZ)
        # the share of the guest CPU's time the phase kept busy, from its
        # start to the next snapshot (its own end, guest_jobs), less what
        # one snapshot costs
        if "cpu" in snaps[tag] and "cpu" in nxt:
            ph["busy"] = phase_busy(snaps[tag]["cpu"], nxt["cpu"], shell)
            # and the CPU time it took, in seconds: what its I/Os cost
            # (phase_costs)
            if ph["busy"] is not None:
                ph["cpu_s"] = ph["busy"] * (nxt["cpu"][1] - snaps[tag]["cpu"][1] - shell[1])
        res.setdefault((ci, r), []).append(ph)
    return res


def mpsim_run(mpsim, case, table, devs, nphases, work, extra, shift=0):
    jf = os.path.join(work, "mpsim-%d%s.fio" % (nphases, "-%dus" % shift if shift else ""))
    njobs = sum(len(ph) for ph in case.phases[:nphases])
    text = cut_jobs(case.jobtext, njobs)
    if shift:
        text = start_later(text, len(case.phases[nphases - 1]), shift)
    with open(jf, "w") as f:
        # one report per stonewall group, as the kernel's fio gives it
        f.write("[global]\ngroup_reporting\n" + text)
    cmd = [mpsim] + case.mpsim_args(table, devs) + ["--job=" + jf, "--kernel=" + KERNEL,
                                                    "--hz=100", "--format=json"]
    cmd += [o for o in case.opts if not o.startswith("--table=")] + extra
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1], cmd
    return json.loads(r.stdout), r.stderr.strip(), cmd


def job_section(line):
    """Whether a job file's line opens a job section (not [global])."""
    m = re.match(r"^\s*\[(.+)\]", line)
    return bool(m) and m.group(1).strip() != "global"


def start_later(text, n, us):
    """The job file with its last n job sections started us later
    (startdelay: from the instant the stonewall before them releases)."""
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines) if job_section(line)]
    for i in reversed(heads[-n:]):
        lines.insert(i + 1, "startdelay=%dus" % us)
    return "\n".join(lines) + "\n"


def cut_jobs(text, k):
    """The job file up to (not including) its k+1-th job section."""
    out = []
    seen = 0
    for line in text.splitlines():
        if job_section(line):
            seen += 1
            if seen > k:
                break
        out.append(line)
    return "\n".join(out) + "\n"


def mpsim_case(mpsim, case, table, devs, work, extra, shift=0):
    """mpsim's figures per phase, as kernel_repeat gives them.  Phase k
    comes from a run of phases 0..k (so that the selector's state carries)
    with the options extra(k) (the CPU time of phase k's depth, given to
    the whole run: the phases before it only carry the state): its fio
    figures are that run's k-th job unit, and its I/Os per path that run's
    counts less those of a run of phases 0..k-1 with the same options.
    shift: phase k starts that many us later (start_later), for
    TICK_GRID."""
    runs = {}
    warn = ""
    cmd = None

    def counts(n, e, sh=0):
        nonlocal warn, cmd
        if not n:
            return {}, None
        key = (n, tuple(e), sh)
        if key not in runs:
            j, msg, cmd = mpsim_run(mpsim, case, table, devs, n, work, e, sh)
            if j is None:
                raise BadInput(msg)
            if msg:
                warn = msg
            runs[key] = j
        j = runs[key]
        return {p["path"]: p["ios"] for p in j["paths"]}, j

    res = []
    try:
        for k in range(case.njobs):
            e = extra(k)
            cur, j = counts(k + 1, e, shift)
            prev, _ = counts(k, e)
            units = j["jobs"]
            if len(units) != k + 1:
                return "mpsim reported %d job units for %d jobs" % (len(units), k + 1), cmd
            u = units[k]
            # mpsim's CPU works only per I/O: busy for IOPS x its time per I/O
            per_io = sum(float(o.split("=", 1)[1][:-2]) for o in e
                         if o.startswith(("--submit_cpu=", "--complete_cpu=")))
            res.append(dict(iops=u["iops"], mean=u["lat_mean_us"], p99=u["lat_p99_us"],
                            rt=u["runtime_s"],
                            busy=min(u["iops"] * per_io * 1e-6, 1.0) if per_io else None,
                            ios={n: cur.get(n, 0) - prev.get(n, 0) for n in cur}))
    except BadInput as e:
        return str(e), cmd
    return (res, warn), cmd


def trace_jiffies(path, jobs_of):
    """Jiffies per bio on each path, over the I/Os of the jobs whose
    indices are in jobs_of, in an mpsim trace (text): from map to end_io,
    in whole jiffies of HZ, as the kernel's bio-based dm accounts them on
    a dm-delay device."""
    tick = 10 ** 9 // HZ
    jobs, mapped, tot = {}, {}, {}
    num = re.compile(r" (io|job|now|path)=(\S+)")
    with open(path) as f:
        for line in f:
            w = line.split(" ", 2)
            if len(w) < 3 or w[1] not in ("submit", "map", "end_io"):
                continue
            kv = dict(num.findall(" " + w[2].split(" | ")[0]))
            io = kv.get("io")
            if w[1] == "submit":
                jobs[io] = int(kv["job"])
            elif w[1] == "map":
                mapped[io] = int(kv["now"])
            elif jobs.get(io) in jobs_of and io in mapped:
                n, s = tot.get(kv["path"], (0, 0))
                tot[kv["path"]] = (n + 1, s + int(kv["now"]) // tick - mapped.pop(io) // tick)
    return {p: s / n for p, (n, s) in tot.items() if n}


def mpsim_jiffies(mpsim, case, table, devs, work, extra):
    """mpsim's jiffies per bio on each path, per phase (trace_jiffies of a
    run of phases 0..k with extra(k)), at its own start; {} where it could
    not be had (a diagnosis, not a figure of the check)."""
    out = []
    first = 0
    for k in range(case.njobs):
        # phase k's jobs, as fio numbers a phase's stonewall group
        mine = set(range(first, first + len(case.phases[k])))
        first += len(case.phases[k])
        tr = os.path.join(work, "trace-%d.txt" % k)
        j, _, _ = mpsim_run(mpsim, case, table, devs, k + 1, work,
                            extra(k) + ["--trace=" + tr, "--trace-format=text"])
        out.append(trace_jiffies(tr, mine) if j is not None else {})
        if os.path.exists(tr):
            os.remove(tr)
    return out


# ---------------------------------------------------------------- the table

FIGS = (("iops", "IOPS", 1), ("mean", "mean us", 1), ("p99", "p99 us", 1))


# t(0.975, df) for df = 1..19
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093)


def interval(vals):
    """The 95 % prediction interval of one more run, from the repeats."""
    n = len(vals)
    if n < 2:
        return min(vals), max(vals)
    m = sum(vals) / n
    sd = (sum((v - m) ** 2 for v in vals) / (n - 1)) ** 0.5
    k = T975[n - 2] * (1 + 1.0 / n) ** 0.5
    return m - k * sd, m + k * sd


def fio_bucket_us(v):
    """The width, in us, of the bucket of fio's latency histogram that
    holds v us (stat.h: FIO_IO_U_PLAT_BITS = 6, 64 buckets to each power of
    two from 128 ns; below that, one a nanosecond).  fio prints a
    percentile as its bucket's middle, so two runs whose p99 differ by a
    nanosecond can print a bucket apart."""
    ns = int(max(v, 0.0) * 1000)
    msb = ns.bit_length() - 1
    return (1 << (msb - 6)) / 1000.0 if msb > 6 else 0.001


def rnd(v, d):
    return None if v is None else round(v, d)


def fmt(v, d):
    return "-" if v is None else ("%.*f" % (d, v))


# Why the grid's `jitter` cases have their p99 reported, not checked, and
# what they measure for the others (host_late).
def jitter_note(lates):
    meas = ("in this boot %.0f-%.0f us over %d runs, so a delayed p99 elsewhere may lie "
            "up to %.0f us past mpsim's (`within (host timer)`)" % (
                min(lates), max(lates), len(lates), max(lates))) if lates else \
        "not measured in this run (no `jitter` case), so delayed p99s elsewhere are held to mpsim's"
    return (
        "p99 of the cases marked `jitter` is reported, not checked: one I/O at a time "
        "through dm-delay ends on a tick with the guest idle, and the kernel's arithmetic "
        "(which mpsim's p99 is) puts every such I/O on the same tick. UML's tick is a host "
        "timer, late by as much as the host's load makes it (a 10 ms host timer measured "
        "beside a run of this check, two cores at load 2, was late by 182 us at the median, "
        "4.1 ms at p99 and 14 ms at most); a 6.1 kernel on hardware takes its tick from a "
        "local timer interrupt, not from a host's scheduler. So those p99s measure how late "
        "the host made the tick at p99, past mpsim's: " + meas + ". A p99 is such an I/O "
        "where 1 % or more of a phase's I/Os went through a delay, in every kernel run and "
        "in mpsim; the tick can come late, never early. The means of those cases are "
        "checked.")


def path_delayed(p):
    """Whether the path's dm-delay holds any class of bio."""
    return bool(p.get("read") or p.get("write") or p.get("flush"))


def delayed_share(case, ios):
    """The share of a phase's I/Os that went through a path with a delay
    (1 when there were none at all: no figure to go by)."""
    tot = sum(ios.values())
    if not tot:
        return 1.0
    slow = [p["name"] for p in case.paths
            if path_delayed(p)]
    return sum(ios.get(n, 0) for n in slow) / tot


def cpu_paced_p99(case, krs, mk):
    """Whether a phase's p99 is an I/O that UML's CPU alone paced, whose
    spread mpsim does not model (cpu_note): a case given the CPU time
    measured (`cpu`, judge) where fewer than 1 % of the I/Os went through a delay
    in every kernel run and in mpsim, so that the 99th percentile lies
    among the I/Os no dm-delay held, on both sides; or where the delayed
    share is at 1 % within the kernel's spread (below).  Otherwise, where
    one side has 1 % or more, its p99 is a delayed I/O and the figure is
    checked."""
    if not getattr(case, "cpu", False) or mk is None:
        return False
    kd = [delayed_share(case, r["ios"]) for r in krs]
    md = delayed_share(case, mk["ios"])
    if all(d < 0.01 for d in kd) and md < 0.01:
        return True
    # The knife's edge: 1 % lies inside the kernel's own interval for the
    # delayed share, and mpsim's share is in it too.  Whether the 99th
    # percentile is a delayed I/O or the slowest CPU-paced one then turns on
    # a share that agrees within the kernel's spread (one 20 ms path kept
    # busy: 67 I/Os of 6168 in the kernel, 67 of 7240 in mpsim, whose fast
    # path ran faster, still within the kernel's IOPS); the p99 jumps from
    # about 4 ms to 30 ms across it.  The share is checked.
    if len(kd) > 1 and any(d < 0.01 for d in kd + [md]) and any(d >= 0.01 for d in kd + [md]):
        tots = [sum(r["ios"].values()) for r in krs]
        lo, hi = interval(kd)
        q = 1.0 / min(tots) if min(tots) else 0.0
        return lo - q <= 0.01 <= hi + q and lo - q <= md <= hi + q
    return False


def host_timer_p99(case, k, krs, mk):
    """Whether a phase's p99 is reported, not checked, as UML's host
    timer: a case marked `jitter` (one I/O at a time through dm-delay).
    Those cases measure the timer's lateness for the others (host_late)."""
    return bool(case.jitter)


def delayed_p99(case, krs, mk):
    """Whether a phase's p99 is an I/O through a delay on both sides: at
    least 1 % of the I/Os went through one in every kernel run and in
    mpsim.  Such an I/O ends on a tick, and UML's tick is a host timer,
    late by as much as the host makes it; mpsim's tick is on time."""
    if mk is None or not any(path_delayed(p) for p in case.paths):
        return False
    return all(delayed_share(case, r["ios"]) >= 0.01 for r in krs) and \
        delayed_share(case, mk["ios"]) >= 0.01


def host_late(kruns, mres):
    """How late the host timer made the p99 of a `jitter` case's runs,
    past mpsim's (the tick arithmetic): [us per run]."""
    return [r[0]["p99"] - mres[0]["p99"] for r in kruns
            if r[0]["p99"] is not None and mres and mres[0]["p99"] is not None]


def spread_of(ph, krs, mk):
    """A CPU-paced phase's own tail, p99 over mean, in the kernel's runs
    and in mpsim, for cpu_note."""
    ks = [r["p99"] / r["mean"] for r in krs if r["p99"] is not None and r["mean"]]
    m = mk["p99"] / mk["mean"] if mk and mk["p99"] is not None and mk["mean"] else None
    return "%s: kernel %s, mpsim %s" % (
        ph, "%.2f-%.2f" % (min(ks), max(ks)) if ks else "-", "-" if m is None else "%.2f" % m)


def cpu_note(scoped):
    """Why the CPU-paced p99s (cpu_paced_p99) are reported, not checked,
    with each such phase's own tail (spread_of)."""
    return ("p99 marked `CPU spread` is reported, not checked: fewer than 1 % of that "
            "phase's I/Os went through a delay, in every kernel run and in mpsim, so its "
            "99th percentile is an I/O that only UML's CPU paced. mpsim gives each I/O "
            "of a phase the same CPU time, its mean as measured, so its latencies there "
            "are almost one value; UML's CPU time per I/O spreads (the host's "
            "preemption, the guest's tick), and an I/O queued behind a slow one waits "
            "for it. p99 over mean in those phases: " + "; ".join(scoped) + ". "
            "Their shares are checked.")


def mixed_note(items):
    """Why the phases of the grid's mixed= are reported, not checked,
    with the jiffies per bio measured in this run (items: compare's)."""
    return ("Figures marked `tick pattern` are reported, not checked: at depth 64 over "
            "paths of 2 and 20 ms, the kernel's dm-delay flushes a path every second or "
            "third tick, and which one it keeps is decided by the host: a stall of UML's CPU "
            "of a few ms moves where the burst of resubmissions after a flush falls in the "
            "ticks and switches the pattern (traced per jiffy in a counting dm-delay: "
            "results/live-6.1-history.md). mpsim's CPU never stalls, so it keeps one "
            "pattern. The dm-delay devices' own counts in this run, jiffies per bio (each "
            "run; mpsim): " + ("; ".join(items) if items else "not measured") + ".")


# A phase is CPU-bound when its CPU never idled: the median of its kernel
# runs' CPU busy at least this (phase_busy reads it to a few hundredths).
# There its IOPS is 1/(CPU time per I/O), the figure mpsim is given, and
# its mean latency depth/IOPS (Little's law): both the host's.
CPU_BOUND = 0.95


def cpu_bound(krs):
    """Whether a phase's kernel runs (krs) kept their CPU busy throughout
    (CPU_BOUND)."""
    b = [r.get("busy") for r in krs]
    return bool(b) and None not in b and statistics.median(b) >= CPU_BOUND


# What sets each kind of figure, and whether it is checked: one sentence
# each, printed under the table (set_by_note) and in docs/live.md.
SET_BY = (
    ("kernel", "checked: the kernel's logic sets it (which path a selector picks, "
     "the jiffies and ticks of a dm-delay, a latency bound by a delay), with the host's "
     "part given to mpsim as measured, so mpsim can get it wrong"),
    ("host CPU", "reported: the phase kept UML's CPU busy throughout, so its IOPS is the "
     "inverse of the CPU time per I/O that mpsim is given, and its mean latency depth over "
     "IOPS: the host's speed, not mpsim's"),
    ("host timer", "reported: one I/O at a time through a delay ends on a tick, and its "
     "p99 is how late UML's host made the tick (jitter_note)"),
    ("CPU spread", "reported: under 1 % of the phase's I/Os went through a delay, so its "
     "p99 is an I/O that only UML's CPU paced, and mpsim gives every I/O the same CPU time "
     "(cpu_note)"),
    ("tick pattern", "reported: which tick dm-delay flushes on is switched by the host's "
     "stalls (mixed_note)"),
    ("diagnostic", "reported: a measurement of UML beside mpsim, with no model to check"),
)


def set_by_note(kinds):
    """The sentence for each kind of figure that the table shows."""
    return ("What sets each figure (the table's third column): " + " ".join(
        "`%s`: %s." % (k, why) for k, why in SET_BY if k in kinds))


def compare(case, kruns, mres, fails, lines, scoped=None, late=None, mixed=None, per=None):
    """Markdown rows for one case; appends to fails what is outside, to
    scoped (a list, if given) each phase whose p99 is out of scope as
    CPU-paced, and to mixed (a list, if given) each phase of the grid's
    mixed= with its jiffies per bio (mixed_note).

    mres: mpsim's figure per phase (the mean of per, mpsim beside each
    kernel run with that run's CPU time), judged as one more run of the
    kernel.  Each figure is set by the kernel's logic, and checked, or by
    the host, and reported (SET_BY).

    late: the most the host timer made a `jitter` case's p99 late in this
    boot (host_late), in us.  The p99 of a phase where it is an I/O
    through a delay (delayed_p99) may lie that much past mpsim's: the
    kernel's tick can come late, never early."""
    pn = [p["name"] for p in case.paths]
    for k in range(case.njobs):
        ph = "%s/%s" % (case.name, case.jobnames[k]) if case.njobs > 1 else case.name
        krs = [r[k] for r in kruns]
        mk = mres[k] if mres else None
        mps = [p[k] for p in per] if per else []
        cpu_tail = cpu_paced_p99(case, krs, mk)
        pattern = case.jobnames[k] in case.mixed
        timer_tail = host_timer_p99(case, k, krs, mk)
        late_tail = late is not None and not (timer_tail or cpu_tail) and \
            delayed_p99(case, krs, mk)
        host_cpu = cpu_bound(krs)
        rows = []
        # one I/O: what a count's resolution is worth in IOPS and in a share
        rt = min(r["rt"] for r in krs)
        tots = [sum(r["ios"].values()) for r in krs]
        # the figures as measured: the interval and the verdict are taken
        # from them, and only the table's columns are rounded (shares of
        # 25/6015, 29/6696 and 28/7540 all print 0.004, but they spread)
        for key, label, d in FIGS:
            vals = [r[key] for r in krs]
            m = mk[key] if mk else None
            # a p99 is printed as its bucket of fio's histogram: one
            # bucket is its resolution
            q = fio_bucket_us if key == "p99" else (1.0 / rt if key == "iops" and rt > 0 else 0.0)
            if key == "p99":
                by = "host timer" if timer_tail else "CPU spread" if cpu_tail else "kernel"
            else:
                by = "host CPU" if host_cpu else "kernel"
            rows.append((label, by, vals, m, d, q, [p[key] for p in mps]))
        if len(pn) > 1:
            def share(f, n):
                tot = sum(f["ios"].values())
                return f["ios"].get(n, 0) / tot if tot else None
            for n in pn:
                vals = [share(r, n) for r in krs]
                m = share(mk, n) if mk else None
                rows.append(("share " + n, "kernel", vals, m, 3,
                             1.0 / min(tots) if min(tots) else 0.0, [share(p, n) for p in mps]))
        counts = " ".join("%s %s" % (n, "/".join(str(r["ios"][n]) for r in krs)) for n in pn)
        mcounts = " ".join("%s %s" % (n, "/".join("%.0f" % p["ios"].get(n, 0) for p in mps))
                           for n in pn) if mps else "-"
        for label, by, vals, m, d, q, mr in rows:
            if any(v is None for v in vals):
                verdict = "no figure"
                plo = phi = None
            else:
                plo, phi = interval(vals)
                # widened by the figure's resolution at each end; no
                # figure here is below 0
                qlo, qhi = (q(plo), q(phi)) if callable(q) else (q, q)
                plo, phi = max(plo - qlo, 0.0), phi + qhi
                if m is None:
                    verdict = "**outside**"
                else:
                    verdict = "within" if plo <= m <= phi else "**outside**"
                    if verdict != "within" and late_tail and label == "p99 us" and \
                            m <= phi and plo <= m + late:
                        verdict = "within (host timer)"
            if getattr(case, "diagnostic", False):
                by = "diagnostic"
            elif pattern:
                by = "tick pattern"
            if by != "kernel":
                verdict = "reported (%s)" % verdict.strip("*")
                if by == "CPU spread" and scoped is not None and label == "p99 us":
                    scoped.append(spread_of(ph, krs, mk))
            elif verdict == "**outside**":
                fails.append("%s %s: mpsim %s, kernel %s..%s" % (ph, label, fmt(m, d),
                                                                 fmt(plo, d), fmt(phi, d)))
            lines.append("| %s | %s | %s | %s | %s..%s | %s | %s | %s |" % (
                ph, label, by, " ".join(fmt(v, d) for v in vals), fmt(plo, d), fmt(phi, d),
                " ".join(fmt(x, d) for x in mr) or "-", fmt(m, d), verdict))
        lines.append("| %s | I/Os per path | | %s | | %s | | |" % (ph, counts, mcounts))
        # the pattern of flushes each run kept: jiffies per bio on each
        # delayed path, from its dm-delay device's own accounting
        jn = [n for n in pn if all(n in r.get("jiffies", {}) for r in krs)]
        if jn:
            mj = (mk or {}).get("jiffies") or {}
            kj = " ".join("%s %s" % (n, "/".join("%.2f" % r["jiffies"][n] for r in krs))
                          for n in jn)
            mjt = " ".join("%s %.2f" % (n, mj[n]) for n in jn if n in mj) or "-"
            lines.append("| %s | jiffies per bio | | %s | | | %s | reported |" % (ph, kj, mjt))
            if pattern and mixed is not None:
                mixed.append("%s: kernel %s, mpsim %s" % (ph, kj, mjt))
        # how busy the phase kept the guest's one CPU (read_stat,
        # phase_busy), beside mpsim's IOPS times the CPU time per I/O it
        # was given: where UML's CPU, not the paths, set the pace
        if all(r.get("busy") is not None for r in krs):
            lines.append("| %s | CPU busy | | %s | | %s | %s | reported |" % (
                ph, " ".join("%.2f" % r["busy"] for r in krs),
                " ".join("-" if p.get("busy") is None else "%.2f" % p["busy"] for p in mps)
                or "-", "-" if not mk or mk.get("busy") is None else "%.2f" % mk["busy"]))


# ---------------------------------------------------------------- commands

def parse_grid(path, repeats):
    cases = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            w = shlex.split(line)
            if len(w) < 3:
                raise BadInput("%s:%d: NAME SCENARIO JOB [OPTIONS]" % (path, n))
            d = os.path.dirname(path)
            opts = []
            flags = set()
            rep = repeats
            mixed = set()
            for o in w[3:]:
                if o in ("jitter", "diagnostic"):
                    flags.add(o)
                elif re.fullmatch(r"mixed=[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*", o):
                    mixed = set(o[6:].split(","))
                elif o.startswith("repeats="):
                    rep = max(repeats, int(o[8:]))
                elif o.startswith("--"):
                    opts.append(o)
                else:
                    raise BadInput("%s:%d: %s: not a flag of the grid (jitter, diagnostic, "
                                   "mixed=, repeats=) nor an mpsim --option" % (path, n, o))
            job = None if w[2] == "-" else os.path.join(d, w[2])
            c = Case(w[0], os.path.join(d, w[1]), job, opts, rep)
            c.jitter = "jitter" in flags
            c.diagnostic = "diagnostic" in flags
            c.mixed = mixed
            if mixed - set(c.jobnames):
                raise BadInput("%s:%d: mixed=%s: the job file has no phase %s" % (
                    path, n, ",".join(sorted(mixed)), ", ".join(sorted(mixed - set(c.jobnames)))))
            cases.append(c)
    return cases


def select_cases(cases, globs):
    """The cases whose names match one of the comma-separated shell
    patterns, in the grid's order."""
    pats = [g.strip() for g in globs.split(",")]
    if not all(pats):
        raise BadInput("--cases=%s: an empty pattern" % globs)
    for g in pats:
        if not any(fnmatch.fnmatchcase(c.name, g) for c in cases):
            raise BadInput("--cases=%s: no case of the grid matches '%s'" % (globs, g))
    return [c for c in cases if any(fnmatch.fnmatchcase(c.name, g) for g in pats)]


def kernel_runs(cases, build, extra_modules, nboots, run):
    """Every case's runs on the kernel, its repeats spread over nboots
    boots of UML, their files under run: (kern, gerr, ticks, n, t) with
    kern {case index: [per run, per phase: read_group's figures]}, gerr
    {case index: why the kernel gave none}, ticks the guest's tick against
    fio's clock per fio process, n the case runs and t the guest's time
    in s."""
    bruns = [os.path.join(run, "boot-%d" % b) for b in range(nboots)]
    # LIVE_REUSE=1: read the last boots' results again (for work on this
    # script: the same cases, no new kernel run), if they ran these cases
    names = "".join("%s %d\n" % (c.name, c.repeats) for c in cases)
    listed = os.path.join(run, "cases")
    reuse = os.environ.get("LIVE_REUSE") == "1" and \
        all(os.path.isdir(os.path.join(b, "out")) for b in bruns) and \
        (not os.path.exists(listed) or open(listed).read() == names)
    if not reuse:
        shutil.rmtree(run, ignore_errors=True)
        os.makedirs(run)
        with open(listed, "w") as f:
            f.write(names)
    guest_sh = os.path.join(HERE, "guest.sh")
    # a group: the cases with the same number of paths and the same top
    # device, in one fio process; cases keep their order within it
    groups = {}
    for ci, c in enumerate(cases):
        groups.setdefault((len(c.paths), bool(c.table)), []).append(ci)
    gitems = []        # (boot, its group's output, its (case, run)s)
    nphases = [0] * nboots
    for b, brun in enumerate(bruns):
        for d in ("groups", "jobs", "load"):
            os.makedirs(os.path.join(brun, d), exist_ok=True)
        # LIVE_STATUS=1: `dmsetup status` at each phase's start, in
        # boot-N/out/status (guest.sh snap), to read a selector's own state
        if os.environ.get("LIVE_STATUS") == "1":
            open(os.path.join(brun, "status-wanted"), "w").close()
        for gi, (key, cis) in enumerate(groups.items()):
            gname = "g%d" % gi
            gout = os.path.join(brun, "out", gname)
            # round by round: every case's first run, then every case's
            # second..., so that the host's load, which sets the pace of
            # the CPU-bound phases, changes across a case's repeats (its
            # spread), not between one case and the next
            items = boot_runs(cases, cis, nboots)[b]
            if not items:
                continue
            gitems.append((b, gout, items))
            # clocksource=clock_gettime: fio's default clock under UML is
            # the host's TSC, which fio calibrates against the guest's slow
            # system calls at start-up; it ran 2.5 % slow (every psync
            # latency 2.5 % short of the guest's own jiffies and clock, and
            # the IOPS as much high).  The guest's clock agrees with its
            # jiffies (the tick line of the results).
            job = ["[global]", "filename=${LIVE_DEV}", "thread", "clocksource=clock_gettime",
                   "lat_percentiles=1", "group_reporting", ""]
            for ci, r in items:
                load = os.path.join(brun, "load", "%03d-%d.sh" % (ci, r))
                with open(load, "w") as f:
                    f.write(cases[ci].load_script(ci, r, gout))
                job.append(cases[ci].guest_jobs(ci, r, guest_sh, brun, load))
                nphases[b] += cases[ci].njobs
            jf = os.path.join(brun, "jobs", gname + ".fio")
            with open(jf, "w") as f:
                f.write("\n".join(job))
            first = cases[cis[0]]
            g = ["group_begin %s" % gname]
            for p in first.paths:
                if any(cases[ci].paths[p["index"]]["cache"] == "back" for ci in cis):
                    g.append("loopdev %d" % p["index"])
            for p in first.paths:
                g.append('mkdev p%d "%s"' % (p["index"], first.delay_table(p)))
            if first.table:
                g.append('mkdev mp "%s"' % first.guest_table())
                g.append("runfio %s mp" % jf)
            else:
                g.append("runfio %s p0" % jf)
            g.append("group_end")
            with open(os.path.join(brun, "groups", "%02d.sh" % gi), "w") as f:
                f.write("\n".join(g) + "\n")
    n = sum(len(i) for _, _, i in gitems)
    tfile = os.path.join(run, "guest-time")
    if reuse:
        t = float(open(tfile).read()) if os.path.exists(tfile) else 0.0
    else:
        t = 0.0
        for b, brun in enumerate(bruns):
            nb = sum(len(i) for bb, _, i in gitems if bb == b)
            note("booting %s%s: %d case runs, %d phases" % (
                uml_binary(), " (boot %d of %d)" % (b + 1, nboots) if nboots > 1 else "",
                nb, nphases[b]))
            t += boot(brun, build, extra_modules, nphases[b] * 30 + nb * 20 + 180)
        with open(tfile, "w") as f:
            f.write("%.1f\n" % t)
        note("guest ran for %.0f s" % t)
    kern = {}
    gerr = {}
    ticks = []
    runs = {}
    for b, gout, items in gitems:
        r = read_group(gout, items, cases)
        for ci in sorted({ci for ci, _ in items}):
            if isinstance(r, str):
                gerr[ci] = r
            else:
                runs.update({(ci, rr): r[(ci, rr)] for cc, rr in items if cc == ci})
        devs = {}
        if os.path.exists(os.path.join(gout, "devs")):
            with open(os.path.join(gout, "devs")) as f:
                for line in f:
                    w = line.split()
                    devs[w[0]] = w[1]
        ck = os.path.join(gout, "clock")
        if os.path.exists(ck):
            w = [line.split() for line in open(ck) if len(line.split()) == 2]
            if len(w) == 2:
                dt = float(w[1][0]) - float(w[0][0])
                dj = int(w[1][1]) - int(w[0][1])
                if dt > 0:
                    names = [cases[i].name for i in sorted({i for i, _ in items})]
                    label = names[0] if len(names) == 1 else "%s to %s" % (names[0], names[-1])
                    if nboots > 1:
                        label = "boot %d, %s" % (b + 1, label)
                    ticks.append("%s, %d jiffies in %.2f s (%+.1f %%)"
                                 % (label, dj, dt, (dj * 0.01 / dt - 1) * 100))
        for ci in sorted({ci for ci, _ in items}):
            kd = {p["name"]: devs.get("p%d" % p["index"]) for p in cases[ci].paths}
            tf = os.path.join(gout, "table-%03d" % ci)
            kt = open(tf).read().strip() if os.path.exists(tf) else None
            # mpsim runs the table the guest loaded: every boot must have
            # loaded the same one, on the same device numbers
            if cases[ci].kdevs is None:
                cases[ci].kdevs, cases[ci].ktable = kd, kt
            elif (cases[ci].kdevs, cases[ci].ktable) != (kd, kt):
                gerr.setdefault(ci, "boot %d loaded another table than boot 1 (%s)" % (b + 1, tf))
    for ci, c in enumerate(cases):
        if ci not in gerr:
            kern[ci] = [runs[(ci, rr)] for rr in range(c.repeats)]
    return kern, gerr, ticks, n, t


def judge(cases, kern, gerr, build, mpsim):
    """mpsim beside the kernel's runs (kernel_runs), case by case: a dict
    of fails (what is outside, or failed), failing ({case index: its
    fails} for each case with a figure outside), lines (the table's rows),
    notes, lates, scoped, mixed and steal (the notes under the table).

    Each kernel run's phases measured their own CPU time per I/O
    (phase_costs); mpsim is run once per kernel run with that run's, and
    its figure is the mean of those runs, judged as one more run of the
    kernel (compare)."""
    fails = []
    failing = {}
    lines = []
    notes = []
    scoped = []        # phases whose p99 is CPU-paced (cpu_paced_p99)
    mixed = []         # the grid's mixed= phases, with their jiffies per bio
    steal = None       # (case, steal_fit) of the first CPU-bound phase at depth 1
    # the `jitter` cases before the others, which take from them how late
    # the host timer made a p99 (host_late)
    order = sorted(range(len(cases)), key=lambda i: not cases[i].jitter)
    lates = []         # the jitter cases' p99s past mpsim's, per run
    for ci in order:
        c = cases[ci]
        if ci in gerr:
            fails.append("%s: kernel: %s" % (c.name, gerr[ci]))
            lines.append("| %s | kernel: %s | | | | | | |" % (c.name, gerr[ci]))
            continue
        kruns = kern[ci]
        table = c.ktable
        devs = c.kdevs if table else {}
        if c.table and not table:
            fails.append("%s: kernel: no table recorded" % c.name)
            continue
        costs = None
        if user_cpu(c):
            notes.append("`%s`: mpsim runs the CPU time its options give, not the one measured"
                         % c.name)
        else:
            try:
                costs = phase_costs(c, kruns)
            except ValueError as e:
                fails.append("%s: %s" % (c.name, e))
                lines.append("| %s | kernel: %s | | | | | | |" % (c.name, e))
                continue
            notes.append(costs_note(c, costs))
        c.cpu = costs is not None
        work = os.path.join(build, "mpsim-work", "%03d" % ci)
        os.makedirs(work, exist_ok=True)
        mfig, per, cmd, w = mpsim_for_runs(mpsim, c, table, devs, work, kruns, costs)
        if isinstance(mfig, str):
            fails.append("%s: mpsim: %s" % (c.name, mfig))
            notes.append("`%s`: mpsim: %s" % (c.name, mfig))
            mfig = per = None
        elif w:
            notes.append("`%s`: %s" % (c.name, w.splitlines()[0]))
        if mfig and any(path_delayed(p) for p in c.paths):
            # the pattern of flushes it kept, at its own start
            for ph, jf in zip(mfig, mpsim_jiffies(mpsim, c, table, devs, work,
                                                  mean_costs(costs))):
                ph["jiffies"] = jf
        if c.jitter and mfig:
            lates += host_late(kruns, mfig)
        if steal is None:
            for k in range(c.njobs):
                if c.depths[k] == 1 and cpu_bound([r[k] for r in kruns]) and \
                        not any(path_delayed(p) for p in c.paths):
                    steal = ("%s/%s" % (c.name, c.jobnames[k]), steal_fit(kruns, k))
                    break
        nf = len(fails)
        compare(c, kruns, mfig, fails, lines, scoped, late=max(lates) if lates else None,
                mixed=mixed, per=per)
        if len(fails) > nf:
            failing[ci] = fails[nf:]
        if cmd:
            notes.append("`%s`: `mpsim %s`" % (c.name, " ".join(shlex.quote(rel(x))
                                                                for x in cmd[1:])))
    return dict(fails=fails, failing=failing, lines=lines, notes=notes, lates=lates,
                scoped=scoped, mixed=mixed, steal=steal)


def figure_counts(lines):
    """The kinds of figure the table's rows show (their `set by`), and a
    line counting them: checked, within and outside; reported, by kind."""
    checked = within = 0
    by = {}
    for ln in lines:
        w = [x.strip() for x in ln.strip("|").split("|")]
        if len(w) < 8 or not w[2]:
            continue
        if w[2] == "kernel":
            checked += 1
            within += w[7].startswith("within")
        else:
            by[w[2]] = by.get(w[2], 0) + 1
    rep = sum(by.values())
    return set(by) | ({"kernel"} if checked else set()), (
        "%d figures: %d checked, %d within, %d outside; %d reported%s." % (
            checked + rep, checked, within, checked - within, rep,
            " (%s)" % ", ".join("%d %s" % (by[k], k) for k, _ in SET_BY if k in by)
            if by else ""))


def run_cases(cases, build, mpsim, results, extra_modules, title, boots=1, second=False):
    """Runs the cases on the kernel and in mpsim, prints the table (and
    writes it to results); 1 if a figure is outside.  second: a case with
    a figure outside runs its repeats again on as many fresh boots, and
    every case is judged again with all its runs (make live-check: three
    runs that agree by chance make an interval narrower than the kernel's
    spread between checks: docs/live.md, the verdict)."""
    # a case's runs go to the boots in turn (run r to boot r mod BOOTS):
    # the kernel's runs in one boot agree more closely than runs in
    # different boots do (docs/live.md), so the
    # spread that judges mpsim is taken over boots
    nboots = max(1, min(boots, max(c.repeats for c in cases)))
    kern, gerr, ticks, n, t = kernel_runs(cases, build, extra_modules, nboots,
                                          os.path.join(build, "run"))
    j = judge(cases, kern, gerr, build, mpsim)
    looked = []
    if second:
        looked = list(j["failing"])
    if looked:
        reps = "/".join(sorted({str(cases[ci].repeats) for ci in looked}))
        note("a second look: %s outside after %s runs; %s runs more on %d fresh boots" % (
            ", ".join(cases[ci].name for ci in looked), reps, reps, nboots))
        sub = [cases[ci] for ci in looked]
        k2, g2, ticks2, n2, t2 = kernel_runs(sub, build, extra_modules, nboots,
                                             os.path.join(build, "run-more"))
        for i, ci in enumerate(looked):
            if i in g2:
                gerr[ci] = "second look: " + g2[i]
            elif ci in kern:
                kern[ci] = kern[ci] + k2[i]
        ticks += ["second look, " + x for x in ticks2]
        n, t = n + n2, t + t2
        first = j
        j = judge(cases, kern, gerr, build, mpsim)
        j["notes"].append(look_note([cases[ci].name for ci in looked],
                                    [f for ci in looked for f in first["failing"][ci]],
                                    {cases[ci].name: len(kern.get(ci, [])) for ci in looked}))
    fails, lines, notes = j["fails"], j["lines"], j["notes"]
    lates, scoped, mixed, steal = j["lates"], j["scoped"], j["mixed"], j["steal"]
    kinds, tally = figure_counts(lines)
    out = []
    out.append("# %s\n" % title)
    out.append("Kernel: Debian user-mode-linux %s (HZ=100, one CPU); mpsim `--kernel=%s --hz=100`. "
               "Each kernel case ran %s times from a fresh table%s%s. "
               "Each phase of each kernel run measured its own CPU time per I/O (the guest's "
               "busy time over its I/Os), and mpsim ran once per kernel run, given that run's "
               "(notes); mpsim's figure is the mean of those runs, each shown in `mpsim, "
               "each run`. The verdict: every figure the kernel's logic sets (`kernel`) must "
               "lie in the 95 %% prediction interval of the kernel's runs, mean ± "
               "t(0.975, n−1)·sd·√(1+1/n) (4.97 sd for 3 runs), widened by the figure's "
               "resolution: one I/O (1/runtime in IOPS, 1/I/Os in a share), one bucket of "
               "fio's histogram in a p99 (1/64 of its power of two: fio prints a percentile "
               "as its bucket's middle). Figures the host sets are reported, with what shows "
               "it (the notes below the table). `CPU busy` is the share of the guest CPU's "
               "time a phase kept busy (time up less time idle and in iowait, from "
               "/proc/uptime and /proc/stat, less what one snapshot's process costs), beside "
               "mpsim's IOPS times the CPU time per I/O it was given. A case through a delay "
               "ends its I/Os on ticks, so where in the tick a phase starts moves its "
               "figures: mpsim runs each phase at starts 0 to 9.75 ms after its own, every "
               "0.25 ms, and beside each kernel run takes its figures at the start where that "
               "run's runtime (fio's job_runtime, to its last reap, after a tick) ends in "
               "the tick as mpsim's does (notes: each run's start)."
               % (uml_release(), KERNEL, "/".join(sorted({str(c.repeats) for c in cases})),
                  (", its runs in %d boots in turn (run r in boot r mod %d: runs in one boot "
                   "agree more closely than runs in different boots)" % (nboots, nboots))
                  if nboots > 1 else "",
                  " (those of the second look twice as many: notes)" if looked else ""))
    out.append("")
    out.append(tally)
    out.append("")
    out.append("| case | figure | set by | kernel, each run | 95 % prediction | mpsim, each run "
               "| mpsim | |")
    out.append("|---|---|---|---|---|---|---|---|")
    out += lines
    out.append("")
    out.append("Guest run time: %.0f s for %d case runs." % (t, n))
    if ticks:
        out.append("")
        out.append("The guest's tick against the clock fio reads, over each fio process "
                   "(HZ=100: 100 jiffies a second): " + "; ".join(ticks) + ".")
    out.append("")
    out.append(set_by_note(kinds))
    out.append("")
    for x in notes:
        out.append("- " + x)
    if steal:
        out.append("- " + steal_note(*steal))
    if "host timer" in kinds or any("within (host timer)" in ln for ln in lines):
        out.append("")
        out.append(jitter_note(lates))
    if scoped:
        out.append("")
        out.append(cpu_note(scoped))
    if "tick pattern" in kinds:
        out.append("")
        out.append(mixed_note(mixed))
    if fails:
        out.append("")
        out.append("Outside the kernel's spread (%d):" % len(fails))
        out.append("")
        for f in fails:
            out.append("- " + f)
    # paths under the working directory as relative ones (the file is kept
    # in the project, and mpsim's own messages name the scenario)
    text = ("\n".join(out) + "\n").replace(os.getcwd() + "/", "")
    print(text)
    if results:
        tmp = results + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, results)
    return 1 if fails else 0


def look_note(names, first, runs):
    """The note of a second look: which cases ran again, what was outside
    after their first runs, and how many runs judge them now."""
    return ("A second look (make live-check): after the first runs, %s had a figure "
            "outside its interval (%s). Each such case ran its repeats again, on as many "
            "fresh boots after the others, and its figures above are judged over all its "
            "runs (%s), the first ones included: with six runs the interval is "
            "mean ± 2.78 sd (t(0.975, 5)·√(1+1/6)), its sd measured over two stretches "
            "of the host's time. A figure outside that interval fails the check" % (
                ", ".join("`%s`" % x for x in names), "; ".join(first),
                ", ".join("%s %d" % (x, runs[x]) for x in names)))


def round_order(cases, cis):
    """The (case, repeat) runs of one fio process: round by round, each
    round in the grid's order; a case of fewer repeats leaves the later
    rounds."""
    rounds = max(cases[ci].repeats for ci in cis)
    return [(ci, r) for r in range(rounds) for ci in cis if r < cases[ci].repeats]


def boot_runs(cases, cis, nboots):
    """round_order's runs, boot by boot: run r of a case in boot r mod
    nboots, so each boot has every case's first runs and a case's runs
    lie in as many boots as it has runs, up to nboots."""
    return [[(ci, r) for ci, r in round_order(cases, cis) if r % nboots == b]
            for b in range(nboots)]


def steal_fit(kruns, k):
    """The time UML's host steals from its CPU, from a CPU-bound phase k
    at depth 1 on paths of no delay (judge takes the grid's first): (LEN, GAP) in us for mpsim's `steal = exp:LEN
    every exp:GAP`, the mean length of a stolen stretch and the mean
    working time of the CPU between two; None where the tail shows none.
    Reported (steal_note), not given to mpsim.

    At depth 1 on paths that end each bio inside submit_bio, every I/O
    costs the CPU the same time and the CPU never idles, so an I/O's
    latency is its own CPU time, m, unless the host stops the CPU while it
    runs: then it is m + L, L the stretch's length.  Stretches that come
    at rate 1/GAP in the CPU's time hit an I/O's latency with
    probability about m/GAP, so for x past the I/Os' own spread
    P(latency > x) = (m/GAP) exp(-(x - m)/LEN).  fio's percentiles
    from the 99.9th on (1 I/O in 1000, 2000 and 10000) are
    such points in every run: the line through all runs' (x - m,
    ln(1 - percentile)) has slope -1/LEN and meets x = m at ln(m/GAP),
    m the runs' mean.  The share of the CPU's time it gives is measured
    well, its parts (LEN, GAP) less so.  Tails that do not fall (a slope of 0 or more, or fewer than two
    distinct points past the mean) show no stretch apart from the I/Os'
    own spread: None."""
    pts = []
    for r in kruns:
        ph = r[k]
        m = ph.get("mean")
        if not m:
            continue
        for q, x in sorted((ph.get("tail") or {}).items()):
            if q < 100.0 and x > m:
                pts.append((x - m, math.log(1.0 - q / 100.0), m))
    if len({x for x, _, _ in pts}) < 2:
        return None
    slope, at_m = statistics.linear_regression([x for x, _, _ in pts], [y for _, y, _ in pts])
    if slope >= 0:
        return None
    return (-1.0 / slope, statistics.fmean(m for _, _, m in pts) / math.exp(at_m))


def stolen(steal):
    """The share of the CPU's time a steal_fit takes: a stretch of LEN
    after each GAP of the CPU's own."""
    return steal[0] / (steal[0] + steal[1]) if steal else 0.0


# A phase gives mpsim its busy time over its I/Os where its I/Os' own
# figures in fio (their submission latency and fio's loop) account for at
# least this share of that busy time, the median of its runs, or where its
# CPU never idled (CPU_BOUND); elsewhere the guest's background makes most
# of it, and fio's figures are given (phase_costs).
IO_SHARE = 0.5


def job_think_us(opts, where):
    """fio's thinktime per I/O of a job, in us (thinktime, in us unless
    given a unit, after every thinktime_blocks I/Os, 1 by default): a
    pause of the job's own, outside its latency, which fio's loop does
    not spend on the CPU."""
    t, blocks = 0.0, 1
    for k, v in opts:
        if k == "thinktime" and v is not None:
            m = re.fullmatch(r"(\d+)(us|ms|s)?", v.strip())
            if not m:
                raise BadInput("%s: thinktime=%s: whole us, ms or s" % (where, v))
            t = int(m.group(1)) * {None: 1, "us": 1, "ms": 1000, "s": 1000000}[m.group(2)]
        elif k == "thinktime_blocks" and v is not None:
            try:
                blocks = max(int(v), 1)
            except ValueError:
                raise BadInput("%s: thinktime_blocks=%s: not a whole number" % (where, v))
    return t / blocks


def phase_costs(case, kruns):
    """Each kernel run's CPU time per I/O in each of its phases, as mpsim
    takes it: [per run: [per phase: (submit_us, complete_us, per_io_us)]].

    complete_us is fio's loop outside its latency, from the stamp after a
    reap to the next I/O's start stamp (mpsim's complete_cpu lies outside
    the latency, its submit_cpu inside).  At depth d each of the d I/Os in
    flight spends its latency L and then that loop, so d/IOPS = L + loop
    (Little's law): at depth 1 the loop is CPU work alone and the formula
    exact; at a higher depth it also counts the wait for the CPU behind
    other reaps.  So it is taken at the case's lowest depth in the same
    run (the same boot and table, seconds before), and kept within each
    phase's time per I/O: fio's figures do not separate it elsewhere.

    per_io, where the I/Os are most of what kept UML's one CPU busy: the
    guest's busy time over the phase (read_group's cpu_s: time up less
    idle and iowait, less one snapshot's own cost) over fio's I/Os.  It
    holds everything the CPU did for them, fio's loop, the system calls,
    dm, the completions, the work after a sleep, and whatever the host
    took from the CPU while the guest counted it busy; so mpsim's CPU is
    busy as the kernel's was, and CPU-bound where it was.  submit_us is
    the rest, inside the latency.

    The busy time also holds the guest's background, the tick's handling
    and fio's helper thread, which cost UML 3-40 % of its time as the
    host's load varies.  Where fio's own figures for the I/Os (slat + the
    loop, times the I/Os) come to less than IO_SHARE of the busy time, in
    the median run, and the CPU idled, that background is most of it:
    15-100 I/Os of a few hundred us each against 0.1-0.8 s of a 2 s
    phase.  There mpsim is given fio's figures: the loop, and fio's
    submission latency (slat: io_submit for libaio; none for a
    synchronous engine, whose system call is the I/O) as submit_us.  An
    I/O of such a phase waits for a tick, and what CPU it takes before its
    device does not change that tick, nor when the next I/O starts, which
    the loop sets.  Either way the busy time over the I/Os bounds what
    they are given.

    A run whose CPU time could not be read (phase_busy: None) takes the
    median of the others; a phase with none in any run, or no I/O, is an
    error."""
    k0 = min(range(case.njobs), key=lambda k: (case.depths[k], k))
    d0 = case.depths[k0]
    think = getattr(case, "think", [0.0] * case.njobs)[k0]
    loops = []
    for run in kruns:
        ph = run[k0]
        loops.append(max(d0 * 1e6 / ph["iops"] - ph["mean"] - think, 0.0)
                     if ph["iops"] and ph["mean"] is not None else 0.0)
    per = []
    for k in range(case.njobs):
        ts = []
        for r in kruns:
            ph = r[k]
            if not ph.get("n"):
                raise ValueError("phase %s: no I/O in a kernel run" % case.jobnames[k])
            ts.append(ph["cpu_s"] / ph["n"] * 1e6 if ph.get("cpu_s") is not None else None)
        known = [t for t in ts if t is not None]
        if not known:
            raise ValueError("phase %s: the guest's CPU time was not read in any run"
                             % case.jobnames[k])
        ts = [statistics.median(known) if t is None else t for t in ts]
        # how much of each run's busy time per I/O fio's own figures give
        share = [((r[k].get("slat") or 0.0) + loops[i]) / t if t else 1.0
                 for i, (r, t) in enumerate(zip(kruns, ts))]
        measured = cpu_bound([r[k] for r in kruns]) or statistics.median(share) >= IO_SHARE
        per.append((measured, ts))
    out = []
    for r, run in enumerate(kruns):
        loop = loops[r]
        row = []
        for k, (measured, ts) in enumerate(per):
            # the busy time over the I/Os bounds what they cost in either case
            c = min(loop, ts[r])
            s = ts[r] - c if measured else min(run[k].get("slat") or 0.0, ts[r] - c)
            row.append((s, c, s + c))
        out.append(row)
    return out


def costs_note(case, costs):
    """The CPU time per I/O each phase of a case measured, as mpsim is
    given it."""
    def us(x):
        return "%.0f" % x
    return ("`%s`: CPU time per I/O measured in each phase and run, given to mpsim run by run "
            "(us, complete_cpu of it: fio's loop outside its latency): %s" % (
                case.name, "; ".join(
                    "%s %s" % (case.jobnames[k], "/".join(
                        "%s (%s)" % (us(run[k][2]), us(run[k][1])) for run in costs))
                    for k in range(case.njobs))))


def user_cpu(case):
    """Whether the case's own options set mpsim's CPU time: then mpsim
    runs the user's model, not the measured one."""
    return any(o.startswith(("--submit_cpu=", "--complete_cpu=", "--wake_cpu="))
               for o in case.opts)


def mpsim_for_runs(mpsim, c, table, devs, work, kruns, costs):
    """mpsim beside each kernel run of case c: the case's phases given that
    run's own CPU time (costs: phase_costs, or None for no CPU time), and
    where a path delays, at that run's start in the tick
    (figs_at_starts).  (the mean over the runs, phase by phase: mpsim's
    figure; the runs' own; the last command; a warning), or an error
    string."""
    delayed = any(path_delayed(p) for p in c.paths)
    per = []
    warn = ""
    cmd = None
    for r, kr in enumerate(kruns):
        def extra(k, r=r):
            return cpu_opts(*costs[r][k][:2]) if costs else []
        res, cmd = mpsim_case(mpsim, c, table, devs, work, extra)
        if isinstance(res, str):
            return res, None, cmd, warn
        figs, w = res
        warn = w or warn
        if delayed:
            errs = []
            figs, _ = figs_at_starts(mpsim, c, table, devs, work, extra, [kr], figs, errs)
            if errs:
                return errs[0].split(": mpsim: ", 1)[-1], None, cmd, warn
        per.append(figs)
    mean = [at_starts({r: per[r][k] for r in range(len(per))}, [[r] for r in range(len(per))])
            for k in range(c.njobs)]
    return mean, per, cmd, warn


def mean_costs(costs):
    """extra(k) for the mean of the runs' costs (a diagnosis: jiffies per
    bio)."""
    def extra(k):
        if not costs:
            return []
        return cpu_opts(statistics.fmean(r[k][0] for r in costs),
                        statistics.fmean(r[k][1] for r in costs))
    return extra


# Where in its 10 ms tick (HZ=100) a phase starts, in us after where
# mpsim starts it: fio starts each stonewall phase when the last has
# drained and its exec_prerun (a shell, in the guest) has run.  A
# dm-delay ends I/Os on ticks, so the runtime's end, its drain and the
# latencies near it move with that start (queue-length over 2 and 20 ms at
# depth 16: a mean of 24006 us at mpsim's own start, 23790 at 9 ms later,
# the same I/Os).  The check measures it: fio's job_runtime (whole ms,
# truncated) runs to the phase's last reap, which follows a tick, so the
# runtime's place in the tick is the start's (measured_starts).  mpsim is
# run at each start of this grid, and each kernel run's phase is set
# beside mpsim's at the start whose runtime ends where the run's did.  The
# grid is finer than fio's whole ms: near a tick a runtime's end moves
# less than its start, and a start just before the tick (9.8 ms: 23924
# us in the phase above) and mpsim's own, just after it (24006 us), end
# their runtimes only 0.9 ms apart.
TICK_GRID = tuple(range(0, 10000, 250))


def tick_gap(krt, mrt):
    """How far, in ms around the 10 ms tick, mpsim's runtime mrt (s) ends
    from the kernel's krt (s, fio's whole ms: the run ended in [krt, krt
    + 1 ms)); 0 inside."""
    k = round(krt * 1000.0) % 10
    m = (mrt * 1000.0 - k) % 10      # from the window's start, 0..10
    return 0.0 if m < 1.0 else min(m - 1.0, 10.0 - m)


def run_gap(krt, mrt):
    """How far, in ms, mpsim's runtime mrt (s) ends from the kernel's krt
    (s, fio's whole ms: the run ended in [krt, krt + 1 ms)); 0 inside."""
    k = round(krt * 1000.0)
    m = mrt * 1000.0
    return 0.0 if k <= m < k + 1 else min(abs(m - k), abs(m - k - 1))


def measured_starts(krts, mrts):
    """For each kernel run's runtime of a phase (krts, s), the starts of
    TICK_GRID (indices) whose mpsim runtime (mrts[i], s) ends where the
    run's did, all of them on a tie.  The runtime itself first: a time
    based phase ends at the first reap past its runtime, so a start just
    after a tick can end a tick earlier than one just before it, whose
    runtimes then end in the same ms of the tick.  Where no start of mpsim
    ends within 1 ms of the run (the kernel drained a tick longer or
    shorter), the place in the tick alone (tick_gap)."""
    out = []
    for krt in krts:
        gaps = [run_gap(krt, m) for m in mrts]
        if min(gaps) >= 1.0:
            gaps = [tick_gap(krt, m) for m in mrts]
        best = min(gaps)
        out.append([i for i, g in enumerate(gaps) if g == best])
    return out


def at_starts(figs, picks):
    """mpsim's figures of a phase at the kernel runs' measured starts:
    each figure the mean over the runs of its mean over the run's starts
    (figs[i]: the phase at TICK_GRID[i]; picks: measured_starts)."""
    def mean(xs):
        xs = [x for x in xs if x is not None]
        return sum(xs) / len(xs) if xs else None

    def per_run(key):
        return [mean([figs[i].get(key) for i in p]) for p in picks]
    out = {key: mean(per_run(key)) for key in ("iops", "mean", "p99", "busy", "rt")}
    names = next(iter(figs.values()))["ios"].keys()
    out["ios"] = {n: mean([mean([figs[i]["ios"].get(n, 0) for i in p]) for p in picks])
                  for n in names}
    return out


def figs_at_starts(mpsim, c, table, devs, work, extra, kruns, mfig, fails, picks=None):
    """mpsim's figures of case c, each phase at its kernel runs' starts in
    the tick (measured_starts; picks: those starts, already measured, per
    phase and run), and the starts.  mfig: mpsim's run at its own start
    (TICK_GRID's first), if made."""
    need = sorted({i for ph in picks for p in ph for i in p}) if picks else \
        range(len(TICK_GRID))
    grid = {}
    for i in need:
        if i == 0 and mfig is not None:
            grid[i] = mfig
            continue
        r, _ = mpsim_case(mpsim, c, table, devs if table else {}, work, extra, TICK_GRID[i])
        if isinstance(r, str):
            fails.append("%s: mpsim: %s" % (c.name, r))
            return mfig, None
        grid[i] = r[0]
    if picks is None:
        picks = [measured_starts([r[k]["rt"] for r in kruns],
                                 [grid[i][k]["rt"] for i in range(len(TICK_GRID))])
                 for k in range(c.njobs)]
    figs = [at_starts({i: grid[i][k] for i in grid}, picks[k]) for k in range(c.njobs)]
    return figs, picks


def starts_note(c, picks):
    """Where each kernel run's phases started in the tick, as measured."""
    def ms(p):
        return "/".join("%g" % (TICK_GRID[i] / 1000.0) for i in p)
    return ("`%s`: each run's start in the tick, ms after mpsim's own (from fio's "
            "job_runtime: its drain ends on a tick), %s; mpsim's figures are the mean of "
            "its runs at those starts" % (
                c.name, "; ".join("%s %s" % (c.jobnames[k], " ".join(ms(p) for p in picks[k]))
                                  for k in range(c.njobs))))


def cpu_opts(s, c):
    return ["--submit_cpu=%.1fus" % s, "--complete_cpu=%.1fus" % c]


def steal_note(name, steal):
    """The time the host stole, as a CPU-bound phase measured it
    (steal_fit): reported, not given to mpsim: the CPU time per I/O
    each phase measured holds it already."""
    if not steal:
        return ("`%s`: its latencies at depth 1 show no stretch stolen by the host "
                "(steal_fit)" % name)
    return ("`%s`: the host stole UML's CPU for %.2f ms every %.0f ms of its work on "
            "average (%.1f %% of its time), fitted to the tail of the depth-1 latencies "
            "(fio's 99.9th to 99.99th percentiles, all runs; steal_fit). Reported: mpsim, "
            "given it as `--steal='exp:%.0fus every exp:%.0fus'`, mixes the tick patterns "
            "at depth 64 as the kernel does, but puts stretches into bursts whose p99 the "
            "kernel keeps; each phase's CPU time per I/O, which mpsim is given, holds it "
            "already" % (
                name, steal[0] / 1000.0, steal[1] / 1000.0, 100.0 * stolen(steal),
                steal[0], steal[1]))


def rel(arg):
    """An option with the working directory's prefix taken off its path."""
    cwd = os.getcwd() + "/"
    return arg.replace("=" + cwd, "=")


def preflight(mpsim, case, show=False):
    """None if mpsim takes the case as the user wrote it, else its last
    message.  With show, mpsim's messages go to stderr as they come, that
    one too: a warning that the run will take years is seen at once, not
    when the run ends."""
    cmd = [mpsim] + case.mpsim_args(None, {}) + ["--kernel=" + KERNEL, "--hz=100",
                                                 "--format=json"]
    if case.job:
        cmd.append("--job=" + case.job)
    p = subprocess.Popen(cmd + case.opts, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    last = None
    for line in p.stderr:
        if show:
            sys.stderr.write(line)
            sys.stderr.flush()
        last = line.strip() or last
    p.stderr.close()
    rc = p.wait()
    if rc != 0:
        return last or "mpsim: exit %d" % rc
    return None


def find_mpsim():
    m = os.environ.get("MPSIM")
    if m:
        return m
    for c in (os.path.join(HERE, "..", "mpsim"), shutil.which("mpsim")):
        if c and os.access(c, os.X_OK):
            return os.path.abspath(c)
    return None


def getopt(args, name):
    for a in args:
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


def main(argv):
    if not argv or argv[0] not in ("check", "run"):
        die_bad("usage: live.py check|run [options]")
    cmd, args = argv[0], argv[1:]
    mpsim = find_mpsim()
    if not mpsim:
        die_bad("no mpsim binary (set MPSIM=)")
    own = ("--grid", "--repeats", "--boots", "--results", "--scenario", "--job", "--selector-source",
           "--cases")
    rest = [a for a in args if not a.startswith(tuple(o + "=" for o in own))]
    rep = getopt(args, "--repeats")
    try:
        repeats = int(rep) if rep is not None else 3
        if repeats < 1 or repeats > 20:
            raise ValueError
    except ValueError:
        die_bad("--repeats=%s: a whole number from 1 to 20" % rep)
    bt = getopt(args, "--boots")
    try:
        # check: three boots, as its cases run three times; run: one
        boots = int(bt) if bt is not None else (3 if cmd == "check" else 1)
        if boots < 1 or boots > 20:
            raise ValueError
    except ValueError:
        die_bad("--boots=%s: a whole number from 1 to 20" % bt)
    try:
        if cmd == "check":
            if rest:
                die_bad("check: unknown option %s" % rest[0])
            grid = getopt(args, "--grid") or os.path.join(HERE, "grid")
            cases = parse_grid(grid, repeats)
            sel = getopt(args, "--cases")
            if sel is not None:
                cases = select_cases(cases, sel)
            results = getopt(args, "--results")
            srcs = []
            title = "mpsim beside Linux %s (make live-check)" % KERNEL
            default_build = ("build/live", 1, "set LIVE_BUILD to a directory of yours")
        else:
            for o in ("--cases", "--grid", "--results"):
                if getopt(args, o) is not None:
                    die_bad("%s: make live-check's option; mpsim live runs one scenario and prints its table" % o)
            scn = getopt(args, "--scenario")
            if not scn:
                die_bad("--scenario=FILE is needed (see mpsim live --help)")
            src = getopt(args, "--selector-source")
            srcs = []
            if src is not None:
                if not os.path.isfile(src):
                    die_bad("--selector-source=%s: no such file" % src)
                srcs = [os.path.abspath(src)]
            for a in rest:
                if not a.startswith("--") or "=" not in a:
                    die_bad("%s: options are --KEY=VALUE" % a)
            opts = rest + (["--selector-source=" + srcs[0]] if srcs else [])
            cases = [Case(os.path.basename(scn), scn, getopt(args, "--job"), opts, repeats)]
            results = None
            title = "%s on Linux %s and in mpsim" % (scn, KERNEL)
            default_build = (cache_dir(), 2, "set XDG_CACHE_HOME or LIVE_BUILD to a directory of yours")
    except BadInput as e:
        die_bad(str(e))
    # mpsim must take each case before the kernel runs it: a scenario
    # mpsim refuses is bad input (run: mpsim's messages are shown as they
    # come, its refusal last), or a case that fails (check)
    for c in cases:
        r = preflight(mpsim, c, show=cmd == "run")
        if r is not None and cmd == "run":
            return 2
    for c in cases:
        for w in c.warnings:
            note(w)
    build = build_dir(*default_build)
    if not uml_binary() or not uml_release():
        print("mpsim: live: needs Debian's user-mode-linux (apt-get install user-mode-linux)", file=sys.stderr)
        return 1
    t0 = time.time()
    build_modules(build, srcs)
    mods = [os.path.join(build, "modules", f) for f in sorted(os.listdir(os.path.join(build, "modules")))
            if f in ("dm-historical-service-time.ko", "dm-io-affinity.ko")]
    if srcs:
        b = re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(srcs[0])[:-2] if srcs[0].endswith(".c")
                   else os.path.basename(srcs[0]))
        mods.insert(0, os.path.join(build, "modules", "live_%s.ko" % b))
    note("modules ready in %.0f s" % (time.time() - t0))
    rc = run_cases(cases, build, mpsim, results, mods, title, boots, second=cmd == "check")
    note("done in %.0f s" % (time.time() - t0))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
