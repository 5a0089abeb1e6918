/*
 * scenario.c: a scenario from its ini text (design.md §5b), from a file or
 * built in, then changed by command-line overrides, then checked.  Every
 * option is one line of the option table below, whose setter serves both
 * the file and the command line.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../selectors/ksource.h"
#include "../workloads/fio.h"
#include "ini.h"
#include "scenario.h"

/* The built-in scenarios, generated from workloads/scenarios/ by embed.sh. */
struct builtin_scenario {
	const char *name;
	const char *text;
};
extern const struct builtin_scenario builtin_scenarios[];

#define MAX_FILE	(1024 * 1024)	/* largest scenario file read */
#define MAX_CLONES	4096		/* numjobs of all jobs: fio's
					   --max-jobs default */
#define MAX_INFLIGHT	(1U << 20)	/* I/Os in flight over all clones */
#define MAX_SLOTS	(1U << 20)
#define MAX_RATE_IOPS	1000000000ULL	/* one I/O per ns */
#define MAX_EVENTS	4096		/* fail= and reinstate= lines */
#define SHOW		"%.40s"		/* user text quoted in a message */

static const char *const ioengine_names[] = {
	[IOENGINE_PSYNC] = "psync",
	[IOENGINE_SYNC] = "sync",
	[IOENGINE_PVSYNC] = "pvsync",
	[IOENGINE_PVSYNC2] = "pvsync2",
	[IOENGINE_VSYNC] = "vsync",
	[IOENGINE_LIBAIO] = "libaio",
	[IOENGINE_IO_URING] = "io_uring",
	[IOENGINE_POSIXAIO] = "posixaio",
};

static const char *const rw_names[] = {
	[RW_READ] = "read",
	[RW_WRITE] = "write",
	[RW_RANDREAD] = "randread",
	[RW_RANDWRITE] = "randwrite",
	[RW_RW] = "rw",
	[RW_RANDRW] = "randrw",
	[RW_TRIM] = "trim",
	[RW_RANDTRIM] = "randtrim",
	[RW_TRIMWRITE] = "trimwrite",
	[RW_RANDTRIMWRITE] = "randtrimwrite",
};

const char *ioengine_name(enum ioengine e)
{
	if ((unsigned)e >= ARRAY_SIZE(ioengine_names))
		return "?";
	return ioengine_names[e];
}

const char *rw_name(enum rw_mode rw)
{
	return (unsigned)rw < ARRAY_SIZE(rw_names) ? rw_names[rw] : "?";
}

const char *fio_ddir_name(unsigned d)
{
	static const char *const names[] = {
		[DDIR_READ] = "read", [DDIR_WRITE] = "write",
		[DDIR_TRIM] = "trim", [DDIR_SYNC] = "sync",
	};

	return d < ARRAY_SIZE(names) ? names[d] : "?";
}

bool ioengine_sync(enum ioengine e)
{
	return e != IOENGINE_LIBAIO && e != IOENGINE_IO_URING &&
	       e != IOENGINE_POSIXAIO;
}

unsigned job_iodepth(const struct job_conf *j)
{
	return ioengine_sync(j->ioengine) ? 1 : j->iodepth;
}

/* Replaces control characters so that a message stays on one line. */
static void one_line(char *err)
{
	for (; *err; err++)
		if (iscntrl((unsigned char)*err))
			*err = '?';
}

/* ---- defaults ---- */

void scenario_init(struct scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->mode = MODE_BIO;
	strcpy(sc->selector, "historical-service-time");
	sc->clock = START_KTIME;
	sc->hz = 250;
	sc->uptime = 3600 * NSEC_PER_SEC;
	sc->queue_if_no_path = false;
	sc->timer_wheel = WHEEL_LEVELS;
	sc->workqueue_latency = 0;
	sc->ncpus = 1;
	sc->numa_nodes = 1;
}

/*
 * fio's defaults for a job (fio HOWTO: rw=read, bs=4k, iodepth=1, ...),
 * but for the engine: fio's default, psync, would cap every job that does
 * not name an engine at depth 1, and queue depth is what mpsim studies.
 */
static void job_defaults(struct job_conf *j)
{
	memset(j, 0, sizeof(*j));
	j->rw = RW_READ;
	j->rwmixread = 50;
	j->bs = 4096;
	j->iodepth = 1;
	j->numjobs = 1;
	j->rate_process = RATE_LINEAR;
	j->ioengine = IOENGINE_LIBAIO;
	fio_opts_defaults(j);
}

static void path_defaults(struct path_conf *p)
{
	memset(p, 0, sizeof(*p));
	p->slots = 1;
	p->service.kind = DIST_FIXED;
	p->request_stats = true;
}

void scenario_free(struct scenario *sc)
{
	free(sc->paths);
	free(sc->jobs);
	free(sc->events);
	sc->paths = NULL;
	sc->jobs = NULL;
	sc->events = NULL;
	sc->nr_paths = 0;
	sc->nr_jobs = 0;
	sc->nr_events = 0;
}

void scenario_copy(struct scenario *dst, const struct scenario *src)
{
	size_t np = src->nr_paths * sizeof(*src->paths);
	size_t nj = src->nr_jobs * sizeof(*src->jobs);
	size_t ne = src->nr_events * sizeof(*src->events);

	*dst = *src;
	dst->paths = np ? memcpy(xmalloc(np), src->paths, np) : NULL;
	dst->jobs = nj ? memcpy(xmalloc(nj), src->jobs, nj) : NULL;
	dst->events = ne ? memcpy(xmalloc(ne), src->events, ne) : NULL;
}

static struct path_conf *add_path(struct scenario *sc)
{
	struct path_conf *p;

	sc->paths = xrealloc(sc->paths, (sc->nr_paths + 1) * sizeof(*p));
	p = &sc->paths[sc->nr_paths++];
	path_defaults(p);
	return p;
}

/*
 * A new job from tmpl.  cap, when given, is the room sc->jobs has and
 * grows by doubling (the file's job sections: one realloc each would copy
 * them all every time, quadratic under an allocator that cannot grow in
 * place); without it sc->jobs is sized exactly.
 */
static struct job_conf *add_job(struct scenario *sc, unsigned *cap,
				const struct job_conf *tmpl, const char *name)
{
	unsigned room = cap ? *cap : sc->nr_jobs;
	struct job_conf *j;

	if (sc->nr_jobs == room) {
		room = cap ? (room ? 2 * room : 16) : room + 1;
		sc->jobs = xrealloc(sc->jobs, room * sizeof(*j));
		if (cap)
			*cap = room;
	}
	j = &sc->jobs[sc->nr_jobs++];
	*j = *tmpl;
	snprintf(j->name, sizeof(j->name), "%s", name);
	return j;
}

/* fio's default job, for a scenario without job sections. */
static void add_default_job(struct scenario *sc, const struct job_conf *tmpl)
{
	struct job_conf d;

	if (!tmpl) {
		job_defaults(&d);
		tmpl = &d;
	}
	add_job(sc, NULL, tmpl, "default");
}

/* ---- value helpers for the setters ---- */

/* A string that must fit in a field of `size` bytes. */
static int set_string(const char *v, char *field, size_t size, bool empty_ok,
		      char *err)
{
	size_t n = strlen(v);

	if (!n && !empty_ok)
		return input_error(err, "empty value");
	if (n >= size)
		return input_error(err, "'" SHOW "...' is longer than %zu "
				   "characters", v, size - 1);
	memcpy(field, v, n + 1);
	return 0;
}

/* Index of v in names[0..n), or -1. */
static int lookup(const char *v, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(v, names[i]))
			return (int)i;
	return -1;
}

/* ---- the setters: one per option, shared by file and command line ---- */

/* What a setter may change; only the member its section gives is set. */
struct target {
	struct scenario *sc;		/* [multipath] options */
	struct path_conf *path;		/* [path NAME] options */
	struct job_conf *job;		/* job and [global] options */
	const char *where;		/* "FILE:LINE" or "--KEY", for warnings */
};

static int set_mode(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "bio"))
		t->sc->mode = MODE_BIO;
	else if (!strcmp(v, "request"))
		t->sc->mode = MODE_REQUEST;
	else
		return input_error(err, "unknown mode '" SHOW "' (use bio or "
				   "request)", v);
	return 0;
}

static int set_selector(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;
	const char *c;

	for (c = v; *c; c++)
		if (!isgraph((unsigned char)*c))
			return input_error(err, "'" SHOW "' is not a selector "
					   "name", v);
	/* checked against the selector registry when the run is built */
	sc->selector_source[0] = '\0';
	return set_string(v, sc->selector, sizeof(sc->selector), false, err);
}

/* A kernel selector's own file (selectors/ksource.h), compiled and loaded
 * now so that its name and its mistakes are known at once. */
static int set_selector_source(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;
	const struct ps_type *ty;
	char why[ERR_MAX];

	if (set_string(v, sc->selector_source, sizeof(sc->selector_source),
		       false, err))
		return -EINVAL;
	ty = ps_source_load(v, why);
	if (!ty || strlen(ty->name) >= sizeof(sc->selector)) {
		sc->selector_source[0] = '\0';
		return input_error(err, "%s", ty ? "its selector's name is too "
				   "long" : why);
	}
	strcpy(sc->selector, ty->name);
	return 0;
}

static int set_selector_args(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;

	/* kernel table words without their count; the selector checks them */
	return set_string(v, sc->selector_args, sizeof(sc->selector_args),
			  true, err);
}

static int set_clock(struct target *t, const char *v, char *err)
{
	enum start_clock c;

	if (start_clock_parse(v, &c))
		return input_error(err, "unknown clock '" SHOW "' (use "
				   "jiffies, jiffies-aligned or ktime)", v);
	t->sc->clock = c;
	return 0;
}

static int set_hz(struct target *t, const char *v, char *err)
{
	uint64_t hz = 0;
	int r;

	r = parse_uint(v, &hz, err);
	if (r)
		return r;
	if (hz > UINT32_MAX || !hz_valid((unsigned)hz))
		return input_error(err, "HZ '" SHOW "' is not one a kernel is "
				   "built with (100, 250, 300 or 1000)", v);
	t->sc->hz = (unsigned)hz;
	return 0;
}

static int set_uptime(struct target *t, const char *v, char *err)
{
	return parse_duration(v, NSEC_PER_SEC, &t->sc->uptime, err);
}

/*
 * When select_path of historical-service-time started reading ktime
 * instead of sched_clock (kernel.md §3.10): mainline commit ce40426fdc3c
 * "dm mpath: only use ktime_get_ns() in historical selector", merged for
 * 5.18 and sent to the stable trees open in April 2022 (it carries
 * "Fixes: 2613eab11996", the HST commit of 5.8).  What could be
 * established, and from where (the stable mailing list):
 *   5.10.y  from 5.10.112: the "Linux 5.10.112" announcement of
 *           2022-04-20 lists it, changing dm-historical-service-time.c;
 *   5.15.y  from 5.15.35: the "Linux 5.15.35" announcement and the
 *           5.15.35-rc2 review of 2022-04-19 list it;
 *   5.17.y  from 5.17.4: the 5.17.4-rc1 review series and its push to
 *           linux-stable-rc of 2022-04-18 carry it, as does dm-devel's
 *           "has been added to the 5.17-stable tree" mail (the 5.17.4
 *           release announcement itself was not among the sources).
 * Per-release commit ids in linux-stable could not be established: the
 * sources show only linux-stable-rc ids, which are rebased between
 * candidates (5.17.4-rc1: 19cae6025adf; 5.15.35-rc2: b4e1c30c5595;
 * 5.10.112-rc1: e55becadd5fb), and the stable-queue working commit of
 * the 5.17 note (b155f7f8b5df, 2022-04-17).  The review postings that
 * carry the backport, each "[ Upstream commit ce40426fdc3c... ]":
 *   5.10: "[PATCH 5.10 040/105]", 2022-04-18, Message-Id
 *         <20220418121147.616159582@linuxfoundation.org>
 *         (it patches dm-historical-service-time.c, 5.10's file name);
 *   5.15: "[PATCH 5.15 101/189]", 2022-04-18, Message-Id
 *         <20220418121203.369856490@linuxfoundation.org>.
 * Unestablished: the linux-5.10.y, linux-5.15.y and linux-5.17.y commit
 * ids of the released backports.
 * The other trees that had HST never got it: the stable queue of
 * 2022-04-18 held 4.9, 4.14, 4.19, 5.4, 5.10, 5.15 and 5.17 only, so
 * 5.8, 5.9, 5.11-5.14 and 5.16 had ended; 5.4 and older have no HST.
 * The ktime start stamp of 5.19 (c06dfd124d46, DM_PS_USE_HR_TIMER) is a
 * feature, not a fix, and no stable backport of it was found.
 */
static const struct {
	unsigned major, minor;
	unsigned fixed_from;	/* first sublevel with ce40426fdc3c */
} hst_ktime_backports[] = {
	{ 5, 10, 112 },
	{ 5, 15, 35 },
	{ 5, 17, 4 },
};

/*
 * The last stable release mpsim knows of in each series that had HST,
 * from the "Linux X.Y.Z" announcements on the stable list (5.10 and 5.15
 * still open: the newest seen as a stable base, November 2024).  5.12,
 * 5.13 and 5.19 are left out: their last announcements were not among
 * the sources.  A later sublevel draws a warning, not a refusal: an open
 * series goes on, and a closed one's end is only as sure as this table.
 */
static const struct {
	unsigned major, minor, last;
} stable_last_known[] = {
	{ 5, 8, 18 },	/* 2020-11-01, end of 5.8.y */
	{ 5, 9, 16 },	/* 2020-12-21, end of 5.9.y */
	{ 5, 10, 230 },	/* open (LTS) */
	{ 5, 11, 22 },	/* 2021-05-19, end of 5.11.y */
	{ 5, 14, 21 },	/* 2021-11-21, end of 5.14.y */
	{ 5, 15, 173 },	/* open (LTS) */
	{ 5, 16, 20 },	/* 2022-04-13, end of 5.16.y */
	{ 5, 17, 15 },	/* 2022-06-14, end of 5.17.y */
	{ 5, 18, 19 },	/* 2022-08-21, end of 5.18.y */
};

static void warn_unknown_stable(unsigned major, unsigned minor, unsigned sub)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(stable_last_known); i++)
		if (stable_last_known[i].major == major &&
		    stable_last_known[i].minor == minor &&
		    sub > stable_last_known[i].last)
			mpsim_warn("kernel %u.%u.%u: the last %u.%u release "
				   "mpsim knows of is %u.%u.%u; modelled as "
				   "that series' clocks at %u.%u.%u (check "
				   "the version)", major, minor, sub, major,
				   minor, major, minor,
				   stable_last_known[i].last, major, minor,
				   stable_last_known[i].last);
}

/* The newest series this table knows (kernel.md's "mainline", v6.1x):
 * a later kernel may have changed either clock. */
#define KERNEL_KNOWN_MAJOR	6

/*
 * kernel = X.Y[.Z]: the clocks dm-mpath and historical-service-time used in
 * that release (kernel.md §2.4, §3.10), as if clock= and select_clock= had
 * been given here (later options still override them):
 *   5.8-5.17  bio start stamp jiffies, select_path reads sched_clock
 *             (ktime in the stable releases above)
 *   5.18      bio start stamp jiffies, select_path reads ktime
 *   5.19+     bio start stamp ktime (DM_PS_USE_HR_TIMER), ktime
 * X.Y alone is the X.Y.0 release.  Older kernels are refused: before 4.11
 * the selectors honoured repeat_count (§2.5), which mpsim does not model;
 * so are kernels after 6.x, which the table cannot vouch for.
 */
static int set_kernel(struct target *t, const char *v, char *err)
{
	unsigned major, minor, sub = 0;
	unsigned i;
	int n = 0, m = 0;

	if (!isdigit((unsigned char)*v) ||
	    sscanf(v, "%u.%u%n", &major, &minor, &n) != 1 + 1 ||
	    (v[n] && (v[n] != '.' || !isdigit((unsigned char)v[n + 1]) ||
		      sscanf(v + n + 1, "%u%n", &sub, &m) != 1 ||
		      v[n + 1 + m])))
		return input_error(err, "'" SHOW "' is not a kernel version "
				   "(say 5.10 or 5.15.35)", v);
	if (major < 4 || (major == 4 && minor < 11))
		return input_error(err, "kernel " SHOW ": mpsim models 4.11 "
				   "and later (older selectors honour "
				   "repeat_count)", v);
	if (major > KERNEL_KNOWN_MAJOR)
		return input_error(err, "kernel " SHOW ": mpsim knows the "
				   "clocks of kernels up to %u.x only (give "
				   "clock= and select_clock= instead)", v,
				   KERNEL_KNOWN_MAJOR);
	t->sc->kernel = major * 1000 + minor;
	warn_unknown_stable(major, minor, sub);
	if (major < 5 || (major == 5 && minor < 19)) {
		t->sc->clock = START_JIFFIES;
		t->sc->select_sched_clock = major < 5 ||
					    (major == 5 && minor < 18);
		for (i = 0; i < ARRAY_SIZE(hst_ktime_backports); i++)
			if (hst_ktime_backports[i].major == major &&
			    hst_ktime_backports[i].minor == minor &&
			    sub >= hst_ktime_backports[i].fixed_from)
				t->sc->select_sched_clock = false;
	} else {
		t->sc->clock = START_KTIME;
		t->sc->select_sched_clock = false;
	}
	return 0;
}

static int set_select_clock(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "ktime"))
		t->sc->select_sched_clock = false;
	else if (!strcmp(v, "sched_clock"))
		t->sc->select_sched_clock = true;
	else
		return input_error(err, "unknown select clock '" SHOW "' (use "
				   "ktime, 5.18+, or sched_clock, 5.8-5.17)", v);
	return 0;
}

static int set_sched_clock(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "tsc"))
		t->sc->sched.jiffies = false;
	else if (!strcmp(v, "jiffies"))
		t->sc->sched.jiffies = true;
	else
		return input_error(err, "unknown sched_clock '" SHOW "' (use "
				   "tsc or jiffies)", v);
	return 0;
}

/* A signed duration: sched_clock may run ahead of ktime or behind it. */
static int set_sched_clock_offset(struct target *t, const char *v, char *err)
{
	bool neg = *v == '-';
	sim_ns d;
	int r;

	r = parse_duration(v + neg, 0, &d, err);
	if (r)
		return r;
	if (d > (sim_ns)INT64_MAX)
		return input_error(err, "offset '" SHOW "' is too large", v);
	t->sc->sched.offset = neg ? -(int64_t)d : (int64_t)d;
	return 0;
}

static int set_sched_clock_drift(struct target *t, const char *v, char *err)
{
	bool neg = *v == '-';
	uint64_t ppm;
	int r;

	r = parse_uint(v + neg, &ppm, err);
	if (r)
		return r;
	/* hundreds of ppm are what unsynchronised clocks show (§1.5) */
	if (ppm > 100000)
		return input_error(err, "drift '" SHOW "' is beyond 100000 ppm", v);
	t->sc->sched.drift_ppm = neg ? -(int32_t)ppm : (int32_t)ppm;
	return 0;
}

static int set_queue_if_no_path(struct target *t, const char *v, char *err)
{
	return parse_bool(v, &t->sc->queue_if_no_path, err);
}

static int set_timer_wheel(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "levels"))
		t->sc->timer_wheel = WHEEL_LEVELS;
	else if (!strcmp(v, "classic"))
		t->sc->timer_wheel = WHEEL_CLASSIC;
	else
		return input_error(err, "unknown timer wheel '" SHOW "' (use "
				   "levels, v4.8+, or classic, <= v4.7)", v);
	return 0;
}

static int set_workqueue_latency(struct target *t, const char *v, char *err)
{
	return parse_duration(v, 0, &t->sc->workqueue_latency, err);
}

/*
 * `PATH at TIME`, TIME after the run's start (a bare number is seconds,
 * as runtime=).  The path is looked up once the whole scenario is read
 * (check_events), since [multipath] usually comes before the paths.
 */
static int set_path_event(struct target *t, const char *v, bool reinstate,
			  char *err)
{
	struct scenario *sc = t->sc;
	struct path_event *e;
	const char *at, *when;
	size_t n = strcspn(v, " \t");
	sim_ns ns = 0;
	int r;

	at = v + n;
	at += strspn(at, " \t");
	if (!n || strncmp(at, "at", 2) || !strchr(" \t", at[2]) || !at[2])
		return input_error(err, "'" SHOW "' is not 'PATH at TIME' "
				   "(e.g. sdd at 2s)", v);
	if (n >= NAME_MAX_LEN)
		return input_error(err, "path name '%.*s...' is too long",
				   40, v);
	when = at + 2 + strspn(at + 2, " \t");
	r = parse_duration(when, NSEC_PER_SEC, &ns, err);
	if (r)
		return r;
	if (sc->nr_events == MAX_EVENTS)
		return input_error(err, "more than %u fail= and reinstate= "
				   "events", MAX_EVENTS);
	sc->events = xrealloc(sc->events, (sc->nr_events + 1) *
			      sizeof(*sc->events));
	e = &sc->events[sc->nr_events++];
	memset(e, 0, sizeof(*e));
	memcpy(e->path, v, n);
	e->at = ns;
	e->reinstate = reinstate;
	return 0;
}

static int set_fail(struct target *t, const char *v, char *err)
{
	return set_path_event(t, v, false, err);
}

static int set_reinstate(struct target *t, const char *v, char *err)
{
	return set_path_event(t, v, true, err);
}

static int set_slots(struct target *t, const char *v, char *err)
{
	return parse_count(v, 0, MAX_SLOTS, &t->path->slots, err);
}

static int set_service(struct target *t, const char *v, char *err)
{
	return parse_dist(v, &t->path->service, err);
}

static int set_latency(struct target *t, const char *v, char *err)
{
	return parse_duration(v, 0, &t->path->latency, err);
}

/* Bytes per second, "500M" or "500M/s"; 0 = no per-byte cost. */
static int set_bandwidth(struct target *t, const char *v, char *err)
{
	char buf[64];
	size_t n = strlen(v);

	if (n >= sizeof(buf))
		return input_error(err, "'" SHOW "...' is not a bandwidth", v);
	memcpy(buf, v, n + 1);
	if (n > 2 && !strcmp(buf + n - 2, "/s"))
		buf[n - 2] = '\0';
	return parse_bytes(buf, &t->path->bandwidth, err);
}

static int set_request_stats(struct target *t, const char *v, char *err)
{
	return parse_bool(v, &t->path->request_stats, err);
}

static int set_path_args(struct target *t, const char *v, char *err)
{
	struct path_conf *p = t->path;

	return set_string(v, p->path_args, sizeof(p->path_args), true, err);
}

/*
 * One dm-delay class delay.  The kernel's table takes an unsigned number
 * of milliseconds (kernel.md §7.1), so a time that is not whole
 * milliseconds is refused rather than rounded; a bare number is ms.
 */
static int set_delay_ms(const char *v, unsigned *out, char *err)
{
	sim_ns ns = 0;
	int r;

	r = parse_duration(v, NSEC_PER_MSEC, &ns, err);
	if (r)
		return r;
	if (ns % NSEC_PER_MSEC)
		return input_error(err, "'" SHOW "' is not a whole number of "
				   "milliseconds (dm-delay's table takes "
				   "unsigned ms)", v);
	if (ns / NSEC_PER_MSEC > UINT32_MAX)
		return input_error(err, "'" SHOW "' is more than 2^32-1 ms",
				   v);
	*out = (unsigned)(ns / NSEC_PER_MSEC);
	return 0;
}

/* delay= is the 3-word table: every class, flush included. */
static int set_delay(struct target *t, const char *v, char *err)
{
	struct delay_conf *d = &t->path->delay;
	unsigned ms = 0;
	int r;

	r = set_delay_ms(v, &ms, err);
	if (r)
		return r;
	d->read_ms = d->write_ms = d->flush_ms = ms;
	d->flush_given = false;
	return 0;
}

static int set_read_delay(struct target *t, const char *v, char *err)
{
	return set_delay_ms(v, &t->path->delay.read_ms, err);
}

static int set_write_delay(struct target *t, const char *v, char *err)
{
	return set_delay_ms(v, &t->path->delay.write_ms, err);
}

static int set_flush_delay(struct target *t, const char *v, char *err)
{
	struct delay_conf *d = &t->path->delay;
	int r;

	r = set_delay_ms(v, &d->flush_ms, err);
	if (!r)
		d->flush_given = true;
	return r;
}

static int set_expiry(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "jiffies"))
		t->path->delay.expiry = EXPIRY_JIFFIES;
	else if (!strcmp(v, "ns"))
		t->path->delay.expiry = EXPIRY_NS;
	else
		return input_error(err, "'" SHOW "' is not jiffies (mainline) "
				   "or ns (nanosecond expiry)", v);
	return 0;
}

static int set_kthread_poll(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "mainline"))
		t->path->delay.poll = POLL_SLEEP;
	else if (!strcmp(v, "busy"))
		t->path->delay.poll = POLL_BUSY;
	else
		return input_error(err, "'" SHOW "' is not mainline (6.16+ "
				   "sleeps between polls) or busy (6.7-6.15)",
				   v);
	return 0;
}

/* fio's modes, trims included; an offset modifier ("read:8k") is warned
 * about and ignored (workloads/fio-opts.c). */
static int set_rw(struct target *t, const char *v, char *err)
{
	return fio_set_rw(t->job, v, t->where, err);
}

static int set_rwmixread(struct target *t, const char *v, char *err)
{
	return parse_count(v, 0, 100, &t->job->rwmixread, err);
}

/* fio's str_rwmix_write_cb: rwmixwrite=x is rwmixread=100-x. */
static int set_rwmixwrite(struct target *t, const char *v, char *err)
{
	unsigned w = 0;
	int r;

	r = parse_count(v, 0, 100, &w, err);
	if (r)
		return r;
	t->job->rwmixread = 100 - w;
	return 0;
}

/* bs=4k, or per direction bs=4k,64k (reads, then writes and trims). */
static int set_bs(struct target *t, const char *v, char *err)
{
	return fio_set_bs(t->job, v, err);
}

static int set_iodepth(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, MAX_INFLIGHT, &t->job->iodepth, err);
}

static int set_numjobs(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, MAX_CLONES, &t->job->numjobs, err);
}

static int set_number_ios(struct target *t, const char *v, char *err)
{
	return parse_uint(v, &t->job->number_ios, err);
}

/* fio: "When the unit is omitted, the value is interpreted in seconds." */
static int set_runtime(struct target *t, const char *v, char *err)
{
	return parse_duration(v, NSEC_PER_SEC, &t->job->runtime, err);
}

static int set_ramp_time(struct target *t, const char *v, char *err)
{
	return parse_duration(v, NSEC_PER_SEC, &t->job->ramp_time, err);
}

/* fio's rate_iops is an int: "1k" is 1024 I/Os per second. */
static int set_rate_iops(struct target *t, const char *v, char *err)
{
	uint64_t n = 0;
	int r;

	if (strchr(v, ','))
		return input_error(err, "separate read,write rates are not "
				   "supported");
	r = parse_uint(v, &n, err);
	if (r)
		return r;
	if (n > MAX_RATE_IOPS)
		return input_error(err, "'" SHOW "' is more than one I/O per "
				   "ns", v);
	t->job->rate_iops = (double)n;
	return 0;
}

static int set_rate_process(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "linear"))
		t->job->rate_process = RATE_LINEAR;
	else if (!strcmp(v, "poisson"))
		t->job->rate_process = RATE_POISSON;
	else
		return input_error(err, "'" SHOW "' is not linear or poisson",
				   v);
	return 0;
}

static int set_ioengine(struct target *t, const char *v, char *err)
{
	int i = lookup(v, ioengine_names, ARRAY_SIZE(ioengine_names));

	if (i < 0)
		return input_error(err, "unsupported ioengine '" SHOW "' (use "
				   "libaio, io_uring, posixaio; or sync, "
				   "psync, vsync, pvsync, pvsync2 for depth 1)",
				   v);
	t->job->ioengine = (enum ioengine)i;
	return 0;
}

/* fio's option without a value: `time_based` alone means on. */
static int set_time_based(struct target *t, const char *v, char *err)
{
	if (!v) {
		t->job->time_based = true;
		return 0;
	}
	return parse_bool(v, &t->job->time_based, err);
}

static int set_size(struct target *t, const char *v, char *err)
{
	return parse_bytes(v, &t->job->size, err);
}

static int check_job_name(const char *v, char *err)
{
	const char *c;

	if (!*v)
		return input_error(err, "empty job name");
	if (strlen(v) >= NAME_MAX_LEN)
		return input_error(err, "job name '" SHOW "...' is longer "
				   "than %d characters", v, NAME_MAX_LEN - 1);
	for (c = v; *c; c++)
		if (!isprint((unsigned char)*c))
			return input_error(err, "job name has a control "
					   "character");
	return 0;
}

static int set_name(struct target *t, const char *v, char *err)
{
	int r = check_job_name(v, err);

	if (r)
		return r;
	strcpy(t->job->name, v);
	return 0;
}

/* The simulated machine's CPUs and NUMA nodes (workloads/cpus.c). */
static int set_ncpus(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, PS_MAX_CPUS, &t->sc->ncpus, err);
}

static int set_numa_nodes(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, PS_MAX_CPUS, &t->sc->numa_nodes, err);
}

/* ---- the option table ---- */

enum {
	SEC_MULTIPATH = 1,
	SEC_PATH = 2,
	SEC_JOB = 4,		/* a job section or [global] */
};

enum {
	OPT_FLAG = 1,		/* may be given without a value */
	OPT_FILE = 2,		/* scenario files only, not the command line */
	OPT_CLI = 4,		/* command line only */
	OPT_JOB_ONLY = 8,	/* a job section, not [global] */
	OPT_EVERY_PATH = 16,	/* a [path] option the command line sets on
				   every path */
};

struct option {
	const char *key;
	unsigned sect;		/* SEC_* the option belongs to */
	unsigned flags;		/* OPT_* */
	int (*set)(struct target *t, const char *v, char *err);
	/* For the option walk (tests/options.sh, `mpsim list options`): a
	 * value that changes the built-in scenario's result, or has mpsim
	 * warn or refuse, once the options of `with` are given too. */
	const char *walk, *with;
};

#define BW	"--path.sdd.bandwidth=20m"	/* sizes cost time */
#define WD	"--write_delay=1"		/* directions cost apart */
#define SCHED	"--select_clock=sched_clock"
#define FAILS	"--scenario=tests/golden/failover.ini"
#define LOG	"--read_iolog=tests/iolog/fio-randrw-v3.log"
#define IOA	"--scenario=tests/golden/io-affinity.ini"	/* CPUs matter */
#define TOY	"tests/ksrc/dm-ps-toy.c"	/* a kernel-style file */

/* A new option is one line here.  Aliases share their option's setter. */
static const struct option options[] = {
	{ "mode", SEC_MULTIPATH, 0, set_mode, "request",
	  "--path.sdd.request_stats=0" },
	{ "selector", SEC_MULTIPATH, 0, set_selector, "st", "" },
	{ "selector_args", SEC_MULTIPATH, 0, set_selector_args, "1 0", "" },
	{ "selector_source", SEC_MULTIPATH, 0, set_selector_source, TOY, IOA },
	{ "selector-source", SEC_MULTIPATH, OPT_CLI, set_selector_source, TOY,
	  IOA },
	{ "clock", SEC_MULTIPATH, 0, set_clock, "jiffies", "" },
	{ "hz", SEC_MULTIPATH, 0, set_hz, "100", "--delay=1" },
	{ "uptime", SEC_MULTIPATH, 0, set_uptime, "1001ms", "--delay=1" },
	{ "queue_if_no_path", SEC_MULTIPATH, 0, set_queue_if_no_path, "0",
	  FAILS },
	{ "kernel", SEC_MULTIPATH, 0, set_kernel, "5.10", "" },
	{ "select_clock", SEC_MULTIPATH, 0, set_select_clock, "sched_clock",
	  "--sched_clock_offset=3ms" },
	{ "sched_clock", SEC_MULTIPATH, 0, set_sched_clock, "jiffies", SCHED },
	{ "sched_clock_offset", SEC_MULTIPATH, 0, set_sched_clock_offset,
	  "3ms", SCHED },
	{ "sched_clock_drift_ppm", SEC_MULTIPATH, 0, set_sched_clock_drift,
	  "100000", SCHED },
	{ "timer_wheel", SEC_MULTIPATH, 0, set_timer_wheel, "classic",
	  "--delay=60 --runtime=1s" },
	{ "workqueue_latency", SEC_MULTIPATH, 0, set_workqueue_latency, "1ms",
	  "--delay=60 --runtime=1s" },
	{ "ncpus", SEC_MULTIPATH, 0, set_ncpus, "8", IOA },
	{ "numa_nodes", SEC_MULTIPATH, 0, set_numa_nodes, "2", IOA },
	{ "fail", SEC_MULTIPATH, 0, set_fail, "sdd at 20ms", "" },
	{ "reinstate", SEC_MULTIPATH, 0, set_reinstate, "sdd at 30ms",
	  "--fail='sdd at 20ms'" },

	{ "slots", SEC_PATH, 0, set_slots, "4", "" },
	{ "service", SEC_PATH, 0, set_service, "exp:1ms", "" },
	{ "latency", SEC_PATH, 0, set_latency, "1ms", "" },
	{ "bandwidth", SEC_PATH, 0, set_bandwidth, "20m", "" },
	{ "request_stats", SEC_PATH, 0, set_request_stats, "0",
	  "--mode=request" },
	{ "path_args", SEC_PATH, 0, set_path_args, "1 10", "--selector=st" },
	{ "delay", SEC_PATH, OPT_EVERY_PATH, set_delay, "1", "" },
	{ "read_delay", SEC_PATH, OPT_EVERY_PATH, set_read_delay, "1",
	  "--rw=randrw" },
	{ "write_delay", SEC_PATH, OPT_EVERY_PATH, set_write_delay, "1", "" },
	{ "flush_delay", SEC_PATH, OPT_EVERY_PATH, set_flush_delay, "1", LOG },
	{ "expiry", SEC_PATH, OPT_EVERY_PATH, set_expiry, "ns", "--delay=1" },
	{ "kthread_poll", SEC_PATH, OPT_EVERY_PATH, set_kthread_poll, "busy",
	  "--delay=1" },

	{ "rw", SEC_JOB, 0, set_rw, "randread", WD },
	{ "readwrite", SEC_JOB, 0, set_rw, "randread", WD },
	{ "rwmixread", SEC_JOB, 0, set_rwmixread, "90", "--rw=randrw " WD },
	{ "rwmixwrite", SEC_JOB, 0, set_rwmixwrite, "90", "--rw=randrw " WD },
	{ "bs", SEC_JOB, 0, set_bs, "64k", BW },
	{ "blocksize", SEC_JOB, 0, set_bs, "64k", BW },
	{ "iodepth", SEC_JOB, 0, set_iodepth, "8", "" },
	{ "depth", SEC_JOB, OPT_CLI, set_iodepth, "8", "" },
	{ "numjobs", SEC_JOB, 0, set_numjobs, "2", "" },
	{ "number_ios", SEC_JOB, 0, set_number_ios, "1000", "" },
	{ "runtime", SEC_JOB, 0, set_runtime, "50ms", "" },
	{ "timeout", SEC_JOB, 0, set_runtime, "50ms", "" },
	{ "ramp_time", SEC_JOB, 0, set_ramp_time, "30ms", "" },
	{ "rate_iops", SEC_JOB, 0, set_rate_iops, "1000", "" },
	{ "rate_process", SEC_JOB, 0, set_rate_process, "poisson",
	  "--rate_iops=1000" },
	{ "ioengine", SEC_JOB, 0, set_ioengine, "psync", "" },
	{ "time_based", SEC_JOB, OPT_FLAG, set_time_based, "1", "--size=1m" },
	{ "size", SEC_JOB, 0, set_size, "1m", "" },
	/* files only: never on the command line, so not walked */
	{ "name", SEC_JOB, OPT_FILE | OPT_JOB_ONLY, set_name, NULL, NULL },
};

void scenario_list_options(FILE *f)
{
	const struct option *o;

	for (o = options; o < options + ARRAY_SIZE(options); o++) {
		if (o->flags & OPT_FILE)
			continue;
		fprintf(f, "%s%s\t%s\t%s\n",
			o->sect == SEC_PATH && !(o->flags & OPT_EVERY_PATH) ?
			"path.NAME." : "", o->key, o->walk, o->with);
	}
	fio_list_options(f);
}

/* The option called key, skipping those with any of the flags `not`. */
static const struct option *find_option(const char *key, unsigned not)
{
	const struct option *o;

	for (o = options; o < options + ARRAY_SIZE(options); o++)
		if (!strcmp(key, o->key) && !(o->flags & not))
			return o;
	return NULL;
}

static const char *section_label(unsigned sect)
{
	switch (sect) {
	case SEC_MULTIPATH:
		return "[multipath]";
	case SEC_PATH:
		return "[path NAME]";
	default:
		return "a job section or [global]";
	}
}

/* Runs o's setter; a failure reads "KEY: why" (prefix is "" or "--"). */
static int apply(const struct option *o, struct target *t, const char *prefix,
		 const char *key, const char *value, char *err)
{
	char why[ERR_MAX];

	if (!value && !(o->flags & OPT_FLAG))
		return input_error(err, "%s" SHOW ": needs a value", prefix,
				   key);
	if (o->set(t, value, why))
		return input_error(err, "%s" SHOW ": %s", prefix, key, why);
	return 0;
}

/* ---- the file ---- */

enum section {
	IN_NONE,
	IN_MULTIPATH,
	IN_PATH,
	IN_GLOBAL,
	IN_JOB,
};

struct parser {
	struct scenario *sc;
	enum section in;		/* the section being read */
	struct job_conf global;		/* fio defaults + [global] so far */
	bool seen_multipath;
	unsigned *path_line;		/* header line of each path */
	bool *has_service;		/* each path has service= */
	unsigned path_cap;		/* room in the two arrays above */
	unsigned job_cap;		/* room in sc->jobs */
	unsigned line;			/* the line being read */
	bool fio;			/* a fio job file (--job): jobs only */
	char where[ERR_MAX];		/* "FILE:LINE" of the line */
};

static bool path_name_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._:+@-", *s))
			return false;
	return true;
}

static int start_path(struct parser *ps, const char *name, unsigned line,
		      char *err)
{
	struct scenario *sc = ps->sc;
	unsigned i, n = sc->nr_paths;

	if (!*name)
		return input_error(err, "a path section needs a name: "
				   "[path NAME]");
	if (strlen(name) >= NAME_MAX_LEN)
		return input_error(err, "path name '" SHOW "...' is longer "
				   "than %d characters", name,
				   NAME_MAX_LEN - 1);
	if (!path_name_ok(name))
		return input_error(err, "path name '" SHOW "' may hold only "
				   "letters, digits and . _ : + @ -", name);
	/* what one run allocates grows with its paths (a latency histogram
	 * of sizeof(struct lat_hist), 59 KiB, each, for every run of a
	 * comparison): refused as the limit is reached */
	if (n == SCENARIO_MAX_PATHS)
		return input_error(err, "more than %u paths, the limit of a "
				   "scenario", SCENARIO_MAX_PATHS);
	for (i = 0; i < n; i++)
		if (!strcmp(sc->paths[i].name, name))
			return input_error(err, "duplicate section [path %s]",
					   name);
	if (n == ps->path_cap) {
		ps->path_cap = n ? 2 * n : 16;
		ps->path_line = xrealloc(ps->path_line, ps->path_cap *
					 sizeof(*ps->path_line));
		ps->has_service = xrealloc(ps->has_service, ps->path_cap *
					   sizeof(*ps->has_service));
	}
	ps->path_line[n] = line;
	ps->has_service[n] = false;
	strcpy(add_path(sc)->name, name);
	ps->in = IN_PATH;
	return 0;
}

/* True when a job other than self is called name. */
static bool job_name_taken(const struct scenario *sc, const char *name,
			   const struct job_conf *self)
{
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++)
		if (&sc->jobs[i] != self && !strcmp(sc->jobs[i].name, name))
			return true;
	return false;
}

static int on_section(struct parser *ps, const char *name, unsigned line,
		      char *err)
{
	int r;

	if (ps->fio && (!strcmp(name, "multipath") ||
			(!strncmp(name, "path", 4) &&
			 (!name[4] || isspace((unsigned char)name[4])))))
		return input_error(err, "[" SHOW "] belongs in a scenario "
				   "file, not in a fio job file", name);
	if (!strcmp(name, "multipath")) {
		if (ps->seen_multipath)
			return input_error(err, "duplicate section "
					   "[multipath]");
		ps->seen_multipath = true;
		ps->in = IN_MULTIPATH;
		return 0;
	}
	if (!strcmp(name, "global")) {
		/* fio: a [global] affects only the jobs below it */
		ps->in = IN_GLOBAL;
		return 0;
	}
	if (!strncmp(name, "path", 4) &&
	    (!name[4] || isspace((unsigned char)name[4]))) {
		name += 4;
		while (isspace((unsigned char)*name))
			name++;
		return start_path(ps, name, line, err);
	}

	r = check_job_name(name, err);
	if (r)
		return r;
	/* every section is a clone at least: refused as it is reached,
	 * before the name checks make the parse quadratic */
	if (ps->sc->nr_jobs == MAX_CLONES)
		return input_error(err, "more than %u job sections (each is "
				   "at least one of the %u job clones a run "
				   "may have)", MAX_CLONES, MAX_CLONES);
	if (job_name_taken(ps->sc, name, NULL))
		return input_error(err, "duplicate job section [" SHOW "]",
				   name);
	add_job(ps->sc, &ps->job_cap, &ps->global, name);
	ps->in = IN_JOB;
	return 0;
}

static int on_option(struct parser *ps, const char *key, const char *value,
		     char *err)
{
	static const unsigned sect_of[] = {
		[IN_MULTIPATH] = SEC_MULTIPATH,
		[IN_PATH] = SEC_PATH,
		[IN_GLOBAL] = SEC_JOB,
		[IN_JOB] = SEC_JOB,
	};
	struct scenario *sc = ps->sc;
	struct target t = { .sc = sc };
	const struct option *o;
	int r;

	if (ps->in == IN_NONE)
		return input_error(err, "option '" SHOW "' outside of any "
				   "[section]", key);
	o = find_option(key, OPT_CLI);
	if (!o && (ps->in == IN_GLOBAL || ps->in == IN_JOB)) {
		/* fio's further options, and those mpsim does not model */
		r = fio_job_option(ps->in == IN_GLOBAL ? &ps->global :
				   &sc->jobs[sc->nr_jobs - 1], key, value,
				   ps->where, err);
		if (r != -ENOENT)
			return r;
	}
	if (!o)
		return input_error(err, "unknown option '" SHOW "'", key);
	if (o->sect != sect_of[ps->in])
		return input_error(err, SHOW ": not an option here (it "
				   "belongs in %s)", key,
				   section_label(o->sect));
	/* fio: the section names each job, whatever [global] says */
	if (ps->in == IN_GLOBAL && (o->flags & OPT_JOB_ONLY) && ps->fio)
		return 0;
	if (ps->in == IN_GLOBAL && (o->flags & OPT_JOB_ONLY))
		return input_error(err, SHOW ": not an option of [global]",
				   key);
	t.where = ps->where;

	if (ps->in == IN_PATH)
		t.path = &sc->paths[sc->nr_paths - 1];
	else if (ps->in == IN_GLOBAL)
		t.job = &ps->global;
	else if (ps->in == IN_JOB)
		t.job = &sc->jobs[sc->nr_jobs - 1];
	r = apply(o, &t, "", key, value, err);
	if (r)
		return r;

	if (o->set == set_service)
		ps->has_service[sc->nr_paths - 1] = true;
	if (o->set == set_fail || o->set == set_reinstate)
		sc->events[sc->nr_events - 1].line = ps->line;
	if (o->set == set_name && job_name_taken(sc, t.job->name, t.job))
		return input_error(err, "name: another job is already named '"
				   SHOW "'", t.job->name);
	return 0;
}

/*
 * Every fail=/reinstate= must name a [path] section: "FILE:LINE: fail:
 * no [path sdx]" for a file's, "--fail: ..." for the command line's.
 */
static int check_events(const struct scenario *sc, char *err)
{
	unsigned i, k;

	/* indices, not `events + nr_events`: events is NULL when there are
	 * none, and NULL + 0 is undefined behaviour in C */
	for (k = 0; k < sc->nr_events; k++) {
		const struct path_event *e = &sc->events[k];

		for (i = 0; i < sc->nr_paths; i++)
			if (!strcmp(sc->paths[i].name, e->path))
				break;
		if (i < sc->nr_paths)
			continue;
		if (e->line)
			return input_error(err, "%s:%u: %s: no [path " SHOW
					   "] in the scenario", sc->name,
					   e->line, e->reinstate ? "reinstate" :
					   "fail", e->path);
		return input_error(err, "--%s: no [path " SHOW "] in %s",
				   e->reinstate ? "reinstate" : "fail",
				   e->path, sc->name);
	}
	return 0;
}

static int on_line(void *ctx, const struct ini_line *l, char *err)
{
	struct parser *ps = ctx;

	ps->line = l->lineno;
	snprintf(ps->where, sizeof(ps->where), "%.200s:%u",
		 l->origin ? l->origin : ps->sc->name, l->lineno);
	if (l->section)
		return on_section(ps, l->section, l->lineno, err);
	return on_option(ps, l->key, l->value, err);
}

/*
 * Reads text, or the file `origin` when text is NULL, with fio's reader
 * (include, ${VAR}, $keywords).  A fio job file (fio) holds jobs only,
 * starts from fio's own defaults and must define a job.
 */
static int parse(struct scenario *sc, const char *text, const char *origin,
		 bool fio, char *err)
{
	struct parser ps = { .sc = sc, .fio = fio };
	unsigned i;
	int r;

	scenario_init(sc);
	snprintf(sc->name, sizeof(sc->name), "%s", origin);
	job_defaults(&ps.global);
	if (fio)
		fio_file_defaults(&ps.global);

	r = text ? fio_read_text(text, origin, on_line, &ps, err)
		 : fio_read_file(origin, on_line, &ps, err);
	if (r)
		goto out_fail;
	for (i = 0; i < sc->nr_paths; i++) {
		if (!ps.has_service[i]) {
			r = input_error(err, "%s:%u: [path %s] has no service= "
					"(e.g. service = exp:100us)", origin,
					ps.path_line[i], sc->paths[i].name);
			goto out_fail;
		}
	}
	r = check_events(sc, err);
	if (r)
		goto out_fail;
	if (!sc->nr_jobs && fio) {
		r = input_error(err, "%s: no job section (fio would run "
				"nothing)", origin);
		goto out_fail;
	}
	/* no job sections: one job, fio's defaults as [global] left them */
	if (!sc->nr_jobs)
		add_default_job(sc, &ps.global);
	goto out;

out_fail:
	one_line(err);
	scenario_free(sc);
out:
	free(ps.path_line);
	free(ps.has_service);
	return r;
}

int scenario_parse(struct scenario *sc, const char *text, const char *origin,
		   char *err)
{
	return parse(sc, text, origin, false, err);
}

static int replace_jobs(struct scenario *sc, const char *text,
			const char *origin, char *err)
{
	struct scenario fj;
	int r;

	r = parse(&fj, text, origin, true, err);
	if (r)
		return r;
	free(sc->jobs);
	sc->jobs = fj.jobs;
	sc->nr_jobs = fj.nr_jobs;
	fj.jobs = NULL;
	fj.nr_jobs = 0;
	scenario_free(&fj);
	return 0;
}

int scenario_load_jobs(struct scenario *sc, const char *path, char *err)
{
	return replace_jobs(sc, NULL, path, err);
}

int scenario_load_job_text(struct scenario *sc, const char *text,
			   const char *origin, char *err)
{
	return replace_jobs(sc, text, origin, err);
}

bool scenario_key_is_job(const char *key)
{
	const struct option *o = find_option(key, 0);

	/* what the table does not hold is fio's, checked when it is read */
	return o ? o->sect == SEC_JOB : strncmp(key, "path.", 5) != 0;
}

int scenario_load_file(struct scenario *sc, const char *path, char *err)
{
	char *buf;
	size_t n;
	int r;

	scenario_init(sc);
	r = read_text_file(path, MAX_FILE, "scenario file", &buf, &n, err);
	if (!r) {
		r = scenario_parse(sc, buf, path, err);
		free(buf);
	}
	if (r)
		one_line(err);
	return r;
}

const char *scenario_builtin_name(unsigned i)
{
	unsigned k;

	for (k = 0; builtin_scenarios[k].name; k++)
		if (k == i)
			return builtin_scenarios[k].name;
	return NULL;
}

const char *scenario_builtin_text(const char *name)
{
	unsigned k;

	for (k = 0; builtin_scenarios[k].name; k++)
		if (!strcmp(builtin_scenarios[k].name, name))
			return builtin_scenarios[k].text;
	return NULL;
}

int scenario_load_builtin(struct scenario *sc, const char *name, char *err)
{
	const char *text = scenario_builtin_text(name);
	char list[ERR_MAX / 2] = "";
	const char *n;
	size_t used = 0;
	unsigned k;

	if (text)
		return scenario_parse(sc, text, name, err);
	scenario_init(sc);
	for (k = 0; (n = scenario_builtin_name(k)); k++) {
		if (used + strlen(n) + 3 > sizeof(list))
			break;
		used += (size_t)sprintf(list + used, "%s%s", k ? ", " : "", n);
	}
	input_error(err, "unknown scenario '" SHOW "' (built in: %s)", name,
		    list);
	one_line(err);
	return -EINVAL;
}

/* ---- the command line ---- */

/* A copy of s without white space at either end, as a file's value. */
static char *trimmed_copy(const char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return memcpy(xcalloc(1, n + 1), s, n);
}

/*
 * A job option scenario.c's table does not hold, from the command line
 * (fio_job_option()): tried on fio's defaults first, so that a name fio
 * does not know adds no default job; then set in every job.
 */
static int fio_option_everywhere(struct scenario *sc, const char *key,
				 const char *value, const char *where,
				 char *err)
{
	char why[ERR_MAX], *v = NULL;
	struct job_conf tmp;
	unsigned i;
	int r = 0;

	if (value && fio_expand(value, &v, why))
		return input_error(err, "--%.60s: %s", key, why);
	job_defaults(&tmp);
	r = fio_job_option(&tmp, key, v, where, why);
	for (i = 0; !r && i < sc->nr_jobs; i++)
		r = fio_job_option(&sc->jobs[i], key, v, where, why);
	if (!r && !sc->nr_jobs)
		add_default_job(sc, &tmp);
	if (r && r != -ENOENT)
		input_error(err, "--%s", why);
	free(v);
	return r;
}

/*
 * --path.NAME.KEY=VALUE: one path's value, e.g. --path.sdj.service=exp:2ms,
 * so that every value of a scenario can be overridden (and swept).
 */
static int set_one_path(struct scenario *sc, const char *key,
			const char *value, char *err)
{
	const char *name = key + strlen("path."), *dot = strrchr(name, '.');
	const struct option *o;
	struct target t = { .sc = sc };
	char *v;
	unsigned i;
	int r;

	if (!dot || dot == name || !dot[1])
		return input_error(err, "--" SHOW ": say --path.NAME.KEY=VALUE", key);
	o = find_option(dot + 1, OPT_FILE);
	if (!o || o->sect != SEC_PATH)
		return input_error(err, "--" SHOW ": '" SHOW "' is not a [path] option",
				   key, dot + 1);
	for (i = 0; i < sc->nr_paths; i++)
		if (strlen(sc->paths[i].name) == (size_t)(dot - name) &&
		    !strncmp(sc->paths[i].name, name, (size_t)(dot - name)))
			break;
	if (i == sc->nr_paths)
		return input_error(err, "--" SHOW ": no path '%.*s' in the scenario",
				   key, (int)(dot - name), name);
	t.path = &sc->paths[i];
	t.where = key;
	v = value ? trimmed_copy(value) : NULL;
	r = apply(o, &t, "--", key, v, err);
	free(v);
	return r;
}

int scenario_set(struct scenario *sc, const char *key, const char *value,
		 char *err)
{
	const struct option *o = find_option(key, OPT_FILE);
	struct target t = { .sc = sc };
	char where[ERR_MAX], *v = NULL;
	unsigned i;
	int r = 0;

	snprintf(where, sizeof(where), "--%.60s", key);
	t.where = where;
	if (!strncmp(key, "path.", 5)) {
		r = set_one_path(sc, key, value, err);
		goto out;
	}
	if (!o && !find_option(key, 0)) {
		r = fio_option_everywhere(sc, key, value, where, err);
		if (r != -ENOENT)
			goto out;
	}
	if (!o) {
		r = input_error(err, "unknown option --" SHOW, key);
		goto out;
	}
	if (o->sect == SEC_PATH && !(o->flags & OPT_EVERY_PATH)) {
		r = input_error(err, "--%s: a [path] option; set it per path "
				"with --path.NAME.%s=VALUE", key, key);
		goto out;
	}
	if (value)
		v = trimmed_copy(value);
	/* fio's ${VAR} and $keywords work on its command line too */
	if (v && o->sect == SEC_JOB) {
		char why[ERR_MAX], *x = NULL;

		r = fio_expand(v, &x, why);
		if (r) {
			input_error(err, "--%.60s: %s", key, why);
			goto out;
		}
		free(v);
		v = x;
	}
	if (o->sect == SEC_MULTIPATH) {
		r = apply(o, &t, "--", key, v, err);
		goto out;
	}
	if (o->sect == SEC_PATH) {
		for (i = 0; i < sc->nr_paths && !r; i++) {
			t.path = &sc->paths[i];
			r = apply(o, &t, "--", key, v, err);
		}
		goto out;
	}
	if (!sc->nr_jobs)
		add_default_job(sc, NULL);
	for (i = 0; i < sc->nr_jobs && !r; i++) {
		t.job = &sc->jobs[i];
		r = apply(o, &t, "--", key, v, err);
	}
out:
	free(v);
	if (r)
		one_line(err);
	return r;
}

/* ---- final checks ---- */

/*
 * dm-delay is a bio-based target, and request-based dm-mpath loads only
 * over request-based (blk-mq) devices: the kernel refuses such a table
 * ("including non-request-stackable devices").
 */
static int check_delay_mode(const struct scenario *sc, char *err)
{
	const struct path_conf *p;

	if (sc->mode != MODE_REQUEST)
		return 0;
	for (p = sc->paths; p < sc->paths + sc->nr_paths; p++)
		if (p->delay.read_ms || p->delay.write_ms || p->delay.flush_ms)
			return input_error(err, "%s: [path %s] has a dm-delay "
					   "layer, a bio-based device that "
					   "request-based multipath cannot "
					   "stack on (use mode = bio)",
					   sc->name, p->name);
	return 0;
}

/*
 * A path on which an I/O takes no time at all: its service can only draw
 * 0 (fixed:0, uniform:0,0), it has no latency, and no dm-delay class
 * holds every I/O back.  A closed loop on it completes and resubmits at
 * one instant forever, so the clock never moves and the run never ends;
 * such a path is refused rather than given a made-up minimum cost.  (A
 * per-byte cost proves nothing: a flush has no bytes, and a fast enough
 * bandwidth rounds to 0 ns.)
 */
static int check_progress(const struct scenario *sc, char *err)
{
	const struct path_conf *p;
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++) {
		const struct delay_conf *d;
		unsigned flush;

		p = &sc->paths[i];
		d = &p->delay;
		flush = d->flush_given ? d->flush_ms : d->write_ms;
		if (p->service.hi > 0 || p->service.mean > 0 || p->latency ||
		    (d->read_ms && d->write_ms && flush))
			continue;
		return input_error(err, "%s: [path %s]: an I/O would take no "
				   "time (its service time is always 0 and "
				   "it has no latency), so the clock could "
				   "stop for good; give it a service time or "
				   "a latency of at least 1ns", sc->name,
				   p->name);
	}
	return 0;
}

/* A problem of one job: "SCENARIO: job NAME: ..." */
static int job_error(const struct scenario *sc, const struct job_conf *j,
		     char *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int job_error(const struct scenario *sc, const struct job_conf *j,
		     char *err, const char *fmt, ...)
{
	char why[ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return input_error(err, "%s: job %s: %s", sc->name, j->name, why);
}

static int validate_job(const struct scenario *sc, const struct job_conf *j,
			uint64_t *log_entries, char *err)
{
	char why[ERR_MAX];

	if (!j->iodepth || j->iodepth > MAX_INFLIGHT)
		return job_error(sc, j, err, "iodepth %u is out of range "
				 "(1 to %u)", j->iodepth, MAX_INFLIGHT);
	if (!j->numjobs)
		return job_error(sc, j, err, "numjobs is 0");
	if (!j->bs || j->bs > UINT32_MAX)
		return job_error(sc, j, err, "bs %llu is out of range",
				 (unsigned long long)j->bs);
	if (j->rwmixread > 100)
		return job_error(sc, j, err, "rwmixread %u is above 100",
				 j->rwmixread);
	if (!j->runtime && !fio_job_bounded(j))
		return job_error(sc, j, err, "never ends (give it runtime= "
				 "or number_ios=)");
	if (fio_validate_job(j, log_entries, why) ||
	    fio_check_cpus(j, sc->ncpus, why))
		return job_error(sc, j, err, "%s", why);
	return 0;
}

int scenario_validate(const struct scenario *sc, char *err)
{
	uint64_t inflight = 0, clones = 0, log_entries = 0;
	const struct job_conf *j;
	int r = 0;

	if (!sc->nr_paths)
		r = input_error(err, "%s: no paths (add a [path NAME] "
				"section)", sc->name);
	else if (!sc->nr_jobs)
		r = input_error(err, "%s: no jobs", sc->name);
	else if (!sc->selector[0])
		r = input_error(err, "%s: no selector", sc->name);
	else if (!hz_valid(sc->hz))
		r = input_error(err, "%s: HZ %u is not one a kernel is built "
				"with (100, 250, 300 or 1000)", sc->name,
				sc->hz);
	/* historical-service-time came with 5.8 (kernel.md §3) */
	if (!r && sc->kernel && sc->kernel < 5008 &&
	    (!strcmp(sc->selector, "historical-service-time") ||
	     !strcmp(sc->selector, "hst")))
		r = input_error(err, "%s: historical-service-time is not in "
				"kernel %u.%u (added in 5.8)", sc->name,
				sc->kernel / 1000, sc->kernel % 1000);
	if (!r && sc->numa_nodes > sc->ncpus)
		r = input_error(err, "%s: numa_nodes=%u is more than the %u "
				"CPUs (ncpus=)", sc->name, sc->numa_nodes,
				sc->ncpus);
	if (!r)
		r = check_events(sc, err);
	if (!r)
		r = check_delay_mode(sc, err);
	if (!r)
		r = check_progress(sc, err);
	for (j = sc->jobs; !r && j < sc->jobs + sc->nr_jobs; j++) {
		r = validate_job(sc, j, &log_entries, err);
		clones += j->numjobs;
		inflight += (uint64_t)job_iodepth(j) * j->numjobs;
	}
	if (!r && clones > MAX_CLONES)
		r = input_error(err, "%s: %llu job clones in all (numjobs), "
				"more than %u", sc->name,
				(unsigned long long)clones, MAX_CLONES);
	if (!r && inflight > MAX_INFLIGHT)
		r = input_error(err, "%s: %llu I/Os in flight in all (iodepth "
				"x numjobs), more than %u", sc->name,
				(unsigned long long)inflight, MAX_INFLIGHT);
	if (r) {
		one_line(err);
		return r;
	}

	/* fio's note: "queue depth will be capped at 1" */
	for (j = sc->jobs; j < sc->jobs + sc->nr_jobs; j++)
		if (ioengine_sync(j->ioengine) && j->iodepth > 1)
			mpsim_warn("job %s: ioengine=%s is synchronous, so "
				   "iodepth=%u is capped at 1 (as fio does; "
				   "use ioengine=libaio)", j->name,
				   ioengine_name(j->ioengine), j->iodepth);
	/* only request-based multipath reads a clone's dispatch stamp */
	if (sc->mode == MODE_BIO) {
		const struct path_conf *p;

		for (p = sc->paths; p < sc->paths + sc->nr_paths; p++)
			if (!p->request_stats) {
				mpsim_warn("%s: [path %s] request_stats = 0 "
					   "changes nothing in bio mode (a bio "
					   "is stamped when dm maps it)",
					   sc->name, p->name);
				break;
			}
	}
	fio_warn_jobs(sc);
	return 0;
}
