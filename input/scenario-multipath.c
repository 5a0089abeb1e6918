/*
 * scenario-multipath.c: the setters of the [multipath] section's keys (the device,
 * its selector, the clocks and kernel version, the timer wheel, the
 * simulated CPUs, and the fail= and reinstate= events).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selectors/ksource.h"
#include "scenario-int.h"
#include "suggest.h"

/* A key the table line gives once there is one. */
int table_owns(const struct scenario *sc, char *err)
{
	if (sc->table)
		return input_error(err, "the table line gives it (change the "
				   "table instead)");
	return 0;
}

int set_mode(struct target *t, const char *v, char *err)
{
	int r = table_owns(t->sc, err);

	if (r)
		return r;
	if (!strcmp(v, "bio"))
		t->sc->mode = MODE_BIO;
	else if (!strcmp(v, "request"))
		t->sc->mode = MODE_REQUEST;
	else
		return input_error(err, "unknown mode '" SHOW "' (use bio or "
				   "request)", v);
	return 0;
}

int set_selector(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;
	const char *c;

	if (table_owns(sc, err))
		return -EINVAL;
	for (c = v; *c; c++)
		if (!isgraph((unsigned char)*c))
			return input_error(err, "'" SHOW "' is not a selector "
					   "name", v);
	/* checked against the selector registry when the run is built */
	sc->selector_source[0] = '\0';
	return set_string(v, sc->selector, sizeof(sc->selector), false, err);
}

/*
 * A kernel selector's own file (selectors/ksource.h), compiled and loaded
 * now so that its name and its mistakes are known at once.  From a
 * scenario file, the path is taken beside that file (as include's), and
 * stderr says that the file has C compiled and run: a scenario from
 * elsewhere is code, not only figures.
 */
int set_selector_source(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;
	const struct ps_type *ty;
	char why[ERR_MAX];
	const char *slash = t->file ? strrchr(t->file, '/') : NULL;

	if (table_owns(sc, err))
		return -EINVAL;
	if (*v && v[0] != '/' && slash) {
		if (snprintf(why, sizeof(why), "%.*s/%s", (int)(slash - t->file),
			     t->file, v) >= (int)sizeof(why))
			return input_error(err, "'" SHOW "' beside %s: path too "
					   "long", v, t->file);
		v = why;
	}
	if (set_string(v, sc->selector_source, sizeof(sc->selector_source),
		       false, err))
		return -EINVAL;
	v = sc->selector_source;
	if (t->file && *v && !mpsim_quiet)
		mpsim_error("%s: selector_source: compiling and running the C "
			    "of %s", t->where, v);
	ty = ps_source_load(v, why);
	if (!ty || strlen(ty->name) >= sizeof(sc->selector)) {
		sc->selector_source[0] = '\0';
		return input_error(err, "%s", ty ? "its selector's name is too "
				   "long" : why);
	}
	strcpy(sc->selector, ty->name);
	return 0;
}

int set_selector_args(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;

	if (table_owns(sc, err))
		return -EINVAL;
	/* kernel table words without their count; the selector checks them */
	return set_string(v, sc->selector_args, sizeof(sc->selector_args),
			  true, err);
}

int set_clock(struct target *t, const char *v, char *err)
{
	enum start_clock c;

	static const char *const clocks[] = {
		"jiffies", "jiffies-aligned", "ktime"
	};
	const char *m;

	if (start_clock_parse(v, &c)) {
		m = suggest_word(v, clocks, ARRAY_SIZE(clocks));
		if (m)
			return input_error(err, "unknown clock '" SHOW "' (did "
					   "you mean %s?)", v, m);
		return input_error(err, "unknown clock '" SHOW "' (use "
				   "jiffies, jiffies-aligned or ktime)", v);
	}
	t->sc->clock = c;
	return 0;
}

int set_hz(struct target *t, const char *v, char *err)
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

int set_uptime(struct target *t, const char *v, char *err)
{
	return parse_duration(v, NSEC_PER_SEC, &t->sc->uptime, err);
}

/*
 * When select_path of historical-service-time started reading ktime
 * instead of sched_clock (docs/kernel-model.md §3.10): mainline commit ce40426fdc3c
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

/* The newest series this table knows (docs/kernel-model.md's "mainline", v6.1x):
 * a later kernel may have changed either clock. */
#define KERNEL_KNOWN_MAJOR	6

/*
 * kernel = X.Y[.Z]: the clocks dm-mpath and historical-service-time used in
 * that release (docs/kernel-model.md §2.4, §3.10), as if clock= and select_clock= had
 * been given here (later options still override them):
 *   5.8-5.17  bio start stamp jiffies, select_path reads sched_clock
 *             (ktime in the stable releases above)
 *   5.18      bio start stamp jiffies, select_path reads ktime
 *   5.19+     bio start stamp ktime (DM_PS_USE_HR_TIMER), ktime
 * The release also picks dm-delay's mode and polling (sim/delay.c,
 * delay_use_kthread_in, §7.4), checked against the path keys once the
 * scenario is read (scenario-check.c).
 * X.Y alone is the X.Y.0 release.  Older kernels are refused: before 4.11
 * the selectors honoured repeat_count (§2.5), which mpsim does not model;
 * so are kernels after 6.x, which the table cannot vouch for.
 */
int set_kernel(struct target *t, const char *v, char *err)
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

int set_select_clock(struct target *t, const char *v, char *err)
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

int set_sched_clock(struct target *t, const char *v, char *err)
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
int set_sched_clock_offset(struct target *t, const char *v, char *err)
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

int set_sched_clock_drift(struct target *t, const char *v, char *err)
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

int set_queue_if_no_path(struct target *t, const char *v, char *err)
{
	if (table_owns(t->sc, err))
		return -EINVAL;
	return parse_bool(v, &t->sc->queue_if_no_path, err);
}

int set_timer_wheel(struct target *t, const char *v, char *err)
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

/* The CPU time of each I/O's submission and completion (sim/cpu.c). */
int set_submit_cpu(struct target *t, const char *v, char *err)
{
	return parse_duration(v, 0, &t->sc->submit_cpu, err);
}

int set_complete_cpu(struct target *t, const char *v, char *err)
{
	return parse_duration(v, 0, &t->sc->complete_cpu, err);
}

int set_wake_cpu(struct target *t, const char *v, char *err)
{
	return parse_duration(v, 0, &t->sc->wake_cpu, err);
}

/* One time of steal=: fixed or exponential, above 0. */
static int steal_dist(const char *v, size_t len, struct dist *d, char *err)
{
	char part[64];

	if (len >= sizeof(part))
		return input_error_line(err, "'%.40s': too long", v);
	memcpy(part, v, len);
	part[len] = '\0';
	if (parse_dist(part, d, err))
		return -EINVAL;
	if (d->kind != DIST_FIXED && d->kind != DIST_EXP)
		return input_error_line(err, "'%s': use fixed:T or exp:MEAN", part);
	if (!(d->mean > 0))
		return input_error_line(err, "'%s': the time must be above 0", part);
	return 0;
}

/* The time a host steals from each CPU (sim/cpu.c): "LEN every GAP", a
 * stretch's length and the CPU's own work between two, each fixed or
 * exponential (a Poisson process); "0" is none. */
int set_steal(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;
	const char *every = strstr(v, " every ");

	if (!strcmp(v, "0")) {
		memset(&sc->steal_cpu, 0, sizeof(sc->steal_cpu));
		memset(&sc->steal_gap, 0, sizeof(sc->steal_gap));
		return 0;
	}
	if (!every)
		return input_error_line(err, "'%.40s': use 'LEN every GAP' "
					"(exp:4ms every exp:180ms), or 0", v);
	if (steal_dist(v, (size_t)(every - v), &sc->steal_cpu, err))
		return -EINVAL;
	every += strlen(" every ");
	return steal_dist(every, strlen(every), &sc->steal_gap, err);
}

int set_workqueue_latency(struct target *t, const char *v, char *err)
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

/*
 * message = WORDS at TIME: a `dmsetup message` to the target (dm-mpath's
 * multipath_message): queue_if_no_path, fail_if_no_path, switch_group N,
 * disable_group N, enable_group N, fail_path DEV, reinstate_path DEV.
 * The words are checked here; group numbers and devices against the
 * table when the run is built.
 */
int set_message(struct target *t, const char *v, char *err)
{
	static const char *const one[] = { "queue_if_no_path", "fail_if_no_path" };
	static const char *const two[] = { "switch_group", "disable_group",
		"enable_group", "fail_path", "reinstate_path" };
	struct scenario *sc = t->sc;
	const char *at = NULL, *c;
	char words[NAME_MAX_LEN], *sp;
	struct path_event *e;
	sim_ns ns = 0;
	size_t n;
	bool ok;
	int r;

	for (c = v; (c = strstr(c, " at ")); c++)
		at = c;
	if (!at)
		return input_error(err, "'" SHOW "' is not 'WORDS at TIME' "
				   "(e.g. switch_group 2 at 3s)", v);
	n = (size_t)(at - v);
	if (n >= sizeof(words))
		return input_error(err, "message '%.*s...' is too long", 40, v);
	memcpy(words, v, n);
	words[n] = '\0';
	sp = strchr(words, ' ');
	if (sp)
		*sp = '\0';
	ok = sp ? str_in_list(words, two, ARRAY_SIZE(two)) && sp[1] &&
		  !strchr(sp + 1, ' ') : str_in_list(words, one, ARRAY_SIZE(one));
	if (sp)
		*sp = ' ';
	if (!ok)
		return input_error(err, "'%.*s' is not a multipath message "
				   "(queue_if_no_path, fail_if_no_path, "
				   "switch_group N, disable_group N, "
				   "enable_group N, fail_path DEV, "
				   "reinstate_path DEV)", (int)n, v);
	r = parse_duration(at + 4 + strspn(at + 4, " \t"), NSEC_PER_SEC, &ns,
			   err);
	if (r)
		return r;
	sc->events = xrealloc(sc->events, (sc->nr_events + 1) *
			      sizeof(*sc->events));
	e = &sc->events[sc->nr_events++];
	memset(e, 0, sizeof(*e));
	memcpy(e->msg, words, n + 1);
	e->at = ns;
	return 0;
}

int set_fail(struct target *t, const char *v, char *err)
{
	return set_path_event(t, v, false, err);
}

int set_reinstate(struct target *t, const char *v, char *err)
{
	return set_path_event(t, v, true, err);
}

/* ---- the whole target: table, priority groups, multipathd ---- */

/*
 * table = the dmsetup line.  Read now for its grammar (messages carry the
 * line), its devices bound once the paths are read (scenario_validate).
 * The table then decides the mode (request-based unless queue_mode bio),
 * queue_if_no_path and the selector; keys given before it are replaced,
 * and given after it refused.
 */
int set_table(struct target *t, const char *v, char *err)
{
	struct scenario *sc = t->sc;
	struct mp_table tb;
	int r;

	if (sc->selector_source[0])
		return input_error(err, "a table names the kernel's built-in "
				   "selectors; selector_source is for the "
				   "short form (selector =)");
	r = mp_table_parse(&tb, v, NULL, err);
	if (r)
		return r;
	sc->mode = tb.bio ? MODE_BIO : MODE_REQUEST;
	sc->queue_if_no_path = tb.queue_if_no_path;
	if (tb.nr_pgs) {
		snprintf(sc->selector, sizeof(sc->selector), "%s",
			 tb.pgs[0].selector);
		snprintf(sc->selector_args, sizeof(sc->selector_args), "%s",
			 tb.pgs[0].args);
	}
	mp_table_free(&tb);
	free(sc->table);
	sc->table = xstrdup(v);
	return 0;
}

int set_hardware_handler(struct target *t, const char *v, char *err)
{
	int r = table_owns(t->sc, err);

	/* as the table's: scsi_dh_attach() knows no other name */
	if (!r && v[0] && !mp_hw_handler_known(v))
		r = input_error(err, "'" SHOW "' is not a hardware handler the "
				"kernel has (alua, emc, hp_sw or rdac)", v);
	return r ? r : set_string(v, t->sc->hw_handler,
				  sizeof(t->sc->hw_handler), true, err);
}

/* The kernel's ranges (parse_features). */
int set_pg_init_retries(struct target *t, const char *v, char *err)
{
	int r = table_owns(t->sc, err);

	return r ? r : parse_count(v, 1, 50, &t->sc->pg_init_retries, err);
}

int set_pg_init_delay_msecs(struct target *t, const char *v, char *err)
{
	int r = table_owns(t->sc, err);

	return r ? r : parse_count(v, 0, 60000, &t->sc->pg_init_delay_msecs,
				   err);
}

int set_pg_init_time(struct target *t, const char *v, char *err)
{
	return parse_duration(v, 0, &t->sc->pg_init_time, err);
}

int set_pg_policy(struct target *t, const char *v, char *err)
{
	static const char *const names[] = {
		[PGP_MULTIBUS] = "multibus",
		[PGP_FAILOVER] = "failover",
		[PGP_GROUP_BY_PRIO] = "group_by_prio",
	};
	int i = lookup(v, names, ARRAY_SIZE(names)), r = table_owns(t->sc, err);

	if (r)
		return r;
	if (i < 0)
		return input_error(err, "'" SHOW "' is not failover, multibus "
				   "or group_by_prio", v);
	t->sc->pg_policy = (enum pg_policy)i;
	return 0;
}

/*
 * multipath.conf's "keyword or number" values: the index of v in names,
 * or, for a count in [1, max], `counted` with *count set; -1 otherwise.
 */
static int keyword_or_count(const char *v, const char *const *names,
			    size_t n, unsigned max, int counted,
			    unsigned *count)
{
	char err[ERR_MAX];
	int i = lookup(v, names, n);

	if (i >= 0)
		return i;
	return parse_count(v, 1, max, count, err) ? -1 : counted;
}

/* immediate, manual, followover, or N seconds (multipath.conf(5)). */
int set_failback(struct target *t, const char *v, char *err)
{
	static const char *const names[] = {
		[FAILBACK_MANUAL] = "manual",
		[FAILBACK_IMMEDIATE] = "immediate",
		[FAILBACK_FOLLOWOVER] = "followover",
	};
	struct scenario *sc = t->sc;
	int i = keyword_or_count(v, names, ARRAY_SIZE(names), 86400,
				 FAILBACK_DEFERRED, &sc->failback_secs);

	if (i < 0)
		return input_error(err, "'" SHOW "' is not immediate, manual, "
				   "followover or a number of seconds", v);
	sc->failback = (enum failback)i;
	return 0;
}

/* queue, fail, or N checker intervals; sets queue_if_no_path as
 * multipathd's table would have it. */
int set_no_path_retry(struct target *t, const char *v, char *err)
{
	static const char *const names[] = {
		[NPR_QUEUE] = "queue",
		[NPR_FAIL] = "fail",
	};
	struct scenario *sc = t->sc;
	int i = keyword_or_count(v, names, ARRAY_SIZE(names), 100000,
				 NPR_COUNT, &sc->npr_count);

	if (i < 0)
		return input_error(err, "'" SHOW "' is not queue, fail or a "
				   "number of checker intervals", v);
	sc->no_path_retry = (enum no_path_retry)i;
	sc->queue_if_no_path = sc->no_path_retry != NPR_FAIL;
	return 0;
}

int set_polling_interval(struct target *t, const char *v, char *err)
{
	int r = parse_duration(v, NSEC_PER_SEC, &t->sc->polling_interval, err);

	if (!r && !t->sc->polling_interval)
		return input_error(err, "must be more than 0");
	return r;
}

/* The simulated machine's CPUs and NUMA nodes (workloads/cpus.c). */
int set_ncpus(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, PS_MAX_CPUS, &t->sc->ncpus, err);
}

int set_numa_nodes(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, PS_MAX_CPUS, &t->sc->numa_nodes, err);
}

