/*
 * pgroup.c: the multipath device's priority groups, after dm-mpath.c
 * (kernel 6.1): built from the table the readers hand down (mp-table.h,
 * read by input/table.c), each with its own
 * selector; choose_pgpath's order (a switch_group first, then the current
 * group while it has a usable path, then every group in table order,
 * bypassed ones last); a group switch that needs the hardware handler's
 * pg_init, holding I/O until pg_init_done; and the dmsetup messages that
 * steer it (switch_group, disable_group, enable_group, fail_path,
 * reinstate_path, queue_if_no_path, fail_if_no_path).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "mp-table.h"
#include "wheels/timer-wheel.h"

int pg_setup(struct mpath *m, const struct mp_table *t, char *err)
{
	struct sim *s = m->sim;
	const struct scenario *sc = s->sc;
	const struct ps_type *type = NULL;
	unsigned i, k;
	int r;

	m->table = t;
	/* the short form's one selector may be a kernel file (ksource.h);
	 * a table names built-in ones */
	if (!sc->table) {
		type = ps_type_of(sc->selector, sc->selector_source, err);
		if (!type)
			return -EINVAL;
	}
	m->hw_handler = t->hw_handler[0] != '\0';
	m->pg_init_delay_msecs = t->pg_init_delay_msecs;
	m->pg_init_time = s->sc->pg_init_time;
	m->queue_if_no_path = t->queue_if_no_path;
	/* alloc_multipath_stage2 sets MPATHF_QUEUE_IO unconditionally; the
	 * first group switch clears it when there is no handler */
	m->queue_io = true;
	m->pgs = xcalloc(t->nr_pgs ? t->nr_pgs : 1, sizeof(*m->pgs));
	m->pg_work = xcalloc(2 * (size_t)s->nr_paths + 1, sizeof(*m->pg_work));
	for (i = 0; i < t->nr_pgs; i++) {
		const struct mp_table_pg *tp = &t->pgs[i];
		struct priority_group *pg = &m->pgs[i];

		pg->pg_num = i + 1;
		pg->pgpaths = xcalloc(tp->nr_paths, sizeof(*pg->pgpaths));
		m->nr_pgs++;
		pg->ps.nr_cpu_ids = sc->ncpus;
		pg->ps.nr_node_ids = sc->numa_nodes;
		pg->ps.hz = sc->hz;
		pg->ps.sched = &m->sched;
		r = ps_init(&pg->ps, type ? type : ps_find(tp->selector),
			    tp->args, err);
		if (r)
			return r;	/* what was built is freed by teardown */
		/* paths reach the selector in table order (§2.1) */
		for (k = 0; k < tp->nr_paths; k++) {
			struct sim_path *p = &s->paths[tp->paths[k].path];
			char why[ERR_MAX];

			p->pg = pg;
			r = ps_add_path(&pg->ps, &p->ps, tp->paths[k].args, why);
			/* the kernel's words, and what the scenario lacks */
			if (r && !tp->paths[k].args[strspn(tp->paths[k].args,
							   " ")] &&
			    !strcmp(pg->ps.type->name, "io-affinity"))
				return input_error(err, "[path %s] path_args: "
						   "%s (io-affinity takes a "
						   "cpumask per path, in hex, "
						   "the CPUs whose I/O the "
						   "path serves: path_args = "
						   "MASK in each [path], or "
						   "--path.%s.path_args=MASK "
						   "and so on)", p->conf->name,
						   why, p->conf->name);
			if (r)
				return input_error(err, "[path %s] path_args: %s",
						   p->conf->name, why);
			pg->pgpaths[pg->nr_pgpaths++] = p;
			m->nr_valid++;
		}
		if (t->next_pg_num == pg->pg_num)
			m->next_pg = pg;
	}
	/* a kernel file reads the clock it names itself (ksource.h) */
	m->select_sched_clock = sc->select_sched_clock && !(type &&
				(type->features & PS_READS_CLOCKS));
	for (i = 0; i < s->nr_paths; i++) {
		struct path_ev *w = &m->pg_work[2 * i];

		s->paths[i].activate = w;
		w[0].kind = PEV_ACTIVATE;
		w[0].path = &s->paths[i];
		w[1].kind = PEV_PG_INIT_DONE;
		w[1].path = &s->paths[i];
	}
	/* scripted messages the kernel would refuse are bad input */
	for (i = 0; i < s->sc->nr_events; i++)
		if (s->sc->events[i].msg[0]) {
			r = mpath_message(m, s->sc->events[i].msg, true, err);
			if (r)
				return r;
		}
	multipathd_setup(m);
	return 0;
}

void pg_teardown(struct mpath *m)
{
	struct ps_path **pp;
	unsigned i, k, n;

	multipathd_teardown(m);
	for (i = 0; i < m->nr_pgs; i++) {
		struct priority_group *pg = &m->pgs[i];

		if (pg->ps.type) {
			pp = xcalloc(pg->nr_pgpaths + 1, sizeof(*pp));
			for (k = n = 0; k < pg->nr_pgpaths; k++)
				if (pg->pgpaths[k]->ps.ps_ctx)
					pp[n++] = &pg->pgpaths[k]->ps;
			ps_exit(&pg->ps, pp, n);
			free(pp);
		}
		free(pg->pgpaths);
	}
	free(m->pgs);
	free(m->pg_work);
	m->pgs = NULL;
	m->table = NULL;
	m->nr_pgs = 0;
}

/* __switch_pg(): with a handler the new group must be initialised, and
 * I/O waits for it. */
static void switch_pg(struct mpath *m, struct priority_group *pg)
{
	m->current_pg = pg;
	m->pg_init_required = m->hw_handler;
	m->queue_io = m->hw_handler;
	m->pg_init_count = 0;
}

/* choose_path_in_pg(): current_pgpath changes only with the group. */
static struct sim_path *choose_path_in_pg(struct mpath *m,
					  struct priority_group *pg,
					  size_t nr_bytes, sim_ns now)
{
	struct ps_path *pp;
	struct sim_path *p;

	pg->ps.cpu = m->cpu;
	pp = pg->ps.type->select_path(&pg->ps, nr_bytes, now);
	p = (struct sim_path *)pp;
	if (!pp)
		return NULL;
	if (__builtin_expect(m->current_pg != pg, 0)) {
		m->current_pgpath = p;
		switch_pg(m, pg);
	}
	return p;
}

/* The scan when the current group has nothing: every group in table
 * order, the bypassed ones only in a second pass, which asks the next
 * pg_init to wait (PG_INIT_DELAY_RETRY) so as not to hammer a busy
 * controller. */
struct sim_path *choose_pgpath_scan(struct mpath *m, size_t nr_bytes,
				    sim_ns now)
{
	int bypassed;
	unsigned i;

	for (bypassed = 1; bypassed >= 0; bypassed--)
		for (i = 0; i < m->nr_pgs; i++) {
			struct priority_group *pg = &m->pgs[i];
			struct sim_path *p;

			if (pg->bypassed == (bypassed != 0))
				continue;
			p = choose_path_in_pg(m, pg, nr_bytes, now);
			if (p) {
				if (!bypassed)
					m->pg_init_delay_retry = true;
				return p;
			}
		}
	m->current_pgpath = NULL;
	m->current_pg = NULL;
	return NULL;
}

struct sim_path *choose_pgpath(struct mpath *m, size_t nr_bytes, sim_ns now)
{
	struct priority_group *pg;
	/* NULL unless a group's selector answers below */
	struct sim_path *p = NULL;

	if (__builtin_expect(!m->nr_valid, 0)) {
		m->queue_io = false;
		m->current_pgpath = NULL;
		m->current_pg = NULL;
		return NULL;
	}
	/* a switch_group message, or the table's initial group */
	if (__builtin_expect(m->next_pg != NULL, 0)) {
		pg = m->next_pg;
		m->next_pg = NULL;
		p = choose_path_in_pg(m, pg, nr_bytes, now);
		if (p)
			return p;
	}
	/* don't change group while the current one has a usable path */
	pg = m->current_pg;
	if (__builtin_expect(pg != NULL, 1)) {
		p = choose_path_in_pg(m, pg, nr_bytes, now);
		if (p)
			return p;
	}
	return choose_pgpath_scan(m, nr_bytes, now);
}

/* ---- pg_init: the hardware handler activates the new group ---- */

void pg_activate_queue(struct mpath *m, struct sim_path *p, sim_ns at)
{
	struct sim *s = m->sim;

	if (p->activate_pending)
		return;		/* queue_delayed_work: already queued */
	p->activate_pending = true;
	m->pg_init_in_progress++;
	sim_schedule(s, at > s->now ? at : s->now, EV_PATH_EVENT, p->activate);
}

/*
 * When queue_delayed_work(wq, work, delay) runs the work: its timer
 * expires at jiffies + delay and is put on the scenario's timer wheel
 * (docs/kernel-model.md §8): the levels wheel fires it at its bucket's expiry, a
 * jiffy later at level 0 and rounded up to the level's granularity
 * beyond (calc_index); the classic wheel at expires.  A delay of 0
 * queues the work at once.  The wheel is a fresh one whose clock is
 * now: a CPU whose timer base is up to date.
 */
static sim_ns delayed_work_due(const struct mpath *m, uint64_t delay)
{
	const struct scenario *sc = m->sim->sc;
	uint64_t now = jiffies_at(m->hz, m->sim->now), at = now + delay;
	struct tw_wheel *w;
	struct tw_timer t;

	if (!delay)
		return m->sim->now;
	w = xmalloc(sizeof(*w));
	tw_init(w, sc->timer_wheel == WHEEL_CLASSIC ? TW_CLASSIC : TW_LEVELS,
		m->hz, now);
	tw_timer_init(&t, NULL);
	tw_mod_timer(w, &t, at, now);
	if (!tw_next_expiry(w, &at))
		assert(0);	/* one timer is pending */
	tw_del_timer(w, &t, now);
	free(w);
	return jiffy_edge(m->hz, at);
}

/*
 * __pg_init_all_paths(): activate every usable path of the current group,
 * after pg_init_delay_msecs (2000 when not given, msecs_to_jiffies
 * rounding up, §1.3) if the group was a bypassed one.
 */
static unsigned pg_init_paths(struct mpath *m)
{
	struct sim *s = m->sim;
	sim_ns at = s->now;
	unsigned i;

	if (m->pg_init_in_progress)
		return m->pg_init_in_progress;
	m->pg_init_count++;
	m->pg_init_required = false;
	if (!m->current_pg)
		return 0;
	if (m->pg_init_delay_retry) {
		unsigned ms = m->pg_init_delay_msecs != PG_INIT_DELAY_DEFAULT ?
			      m->pg_init_delay_msecs : PG_INIT_DELAY_MSECS;
		at = delayed_work_due(m, msecs_to_jiffies(m->hz, ms));
	}
	for (i = 0; i < m->current_pg->nr_pgpaths; i++) {
		struct sim_path *p = m->current_pg->pgpaths[i];

		if (!p->failed)
			pg_activate_queue(m, p, at);
	}
	return m->pg_init_in_progress;
}

void pg_init_all_paths(struct mpath *m)
{
	pg_init_paths(m);
}

/* activate_or_offline_path(): the handler starts (scsi_dh_activate) and
 * answers after pg_init_time; a failed path answers at once, offlined. */
void pg_activate(struct mpath *m, struct sim_path *p)
{
	struct sim *s = m->sim;

	p->activate_pending = false;
	if (p->failed)
		pg_init_done(m, p);
	else
		sim_schedule(s, s->now + m->pg_init_time, EV_PATH_EVENT,
			     p->activate + 1);
}

/*
 * pg_init_done(): a path that failed meanwhile answers SCSI_DH_DEV_OFFLINED
 * (fail_path; the group is dropped if it was the path in use); a success
 * re-enables a bypassed group.  The last activation releases the held I/O.
 */
void pg_init_done(struct mpath *m, struct sim_path *p)
{
	bool errors = p->failed;

	if (errors) {
		mpath_fail_path(m, p);
		if (p == m->current_pgpath) {
			m->current_pgpath = NULL;
			m->current_pg = NULL;
		}
	} else if (!m->pg_init_required) {
		p->pg->bypassed = false;
	}
	if (--m->pg_init_in_progress > 0)
		return;
	if (m->pg_init_required) {
		m->pg_init_delay_retry = false;
		if (pg_init_paths(m))
			return;
	}
	m->queue_io = false;
	mpath_kick(m);
}

/* ---- dmsetup message ---- */

/* A group number as switch_pg_num/bypass_pg_num take it. */
static struct priority_group *pg_by_num(struct mpath *m, const char *w)
{
	unsigned n;

	if (ps_parse_uint(w, &n) || !n || n > m->nr_pgs)
		return NULL;
	return &m->pgs[n - 1];
}

static struct sim_path *path_by_dev(struct mpath *m, const char *w)
{
	struct sim *s = m->sim;
	char dev[NAME_MAX_LEN];
	unsigned i;

	if (!strncmp(w, "/dev/", 5))
		w += 5;
	for (i = 0; i < s->nr_paths; i++) {
		path_dev_name(s->paths[i].conf, dev, sizeof(dev));
		if (!strcmp(dev, w) || !strcmp(s->paths[i].conf->name, w))
			return &s->paths[i];
	}
	return NULL;
}

int mpath_message(struct mpath *m, const char *words, bool check, char *err)
{
	char verb[NAME_MAX_LEN];
	const char *arg = strchr(words, ' ');
	struct priority_group *pg = NULL;
	struct sim_path *p = NULL;
	unsigned i;

	snprintf(verb, sizeof(verb), "%.*s",
		 (int)(arg ? (size_t)(arg - words) : strlen(words)), words);
	if (arg) {
		arg++;
		pg = pg_by_num(m, arg);
		p = path_by_dev(m, arg);
	}
	/* one return for every message taken, checked or run */
	if (!arg) {
		if (!check)
			mpath_queue_if_no_path(m, !strcasecmp(verb,
						  "queue_if_no_path"));
	} else if (strstr(verb, "_group") && !pg) {
		return input_error(err, "message '%s': invalid PG number "
				   "(the table has %u groups)", words,
				   m->nr_pgs);
	} else if (strstr(verb, "_path") && !p) {
		return input_error(err, "message '%s': error getting device",
				   words);
	} else if (check) {
		/* the run is being built: the words are all it checks */
	} else if (!strcasecmp(verb, "switch_group")) {
		/* switch_pg_num: every group enabled, the next map uses pg */
		for (i = 0; i < m->nr_pgs; i++)
			m->pgs[i].bypassed = false;
		m->current_pgpath = NULL;
		m->current_pg = NULL;
		m->next_pg = pg;
	} else if (!strcasecmp(verb, "disable_group") ||
		   !strcasecmp(verb, "enable_group")) {
		/* bypass_pg */
		pg->bypassed = !strcasecmp(verb, "disable_group");
		m->current_pgpath = NULL;
		m->current_pg = NULL;
	} else if (!strcasecmp(verb, "fail_path")) {
		mpath_fail_path(m, p);
	} else {
		mpath_reinstate_path(m, p);
	}
	return 0;
}
